/// No turn under a finger: while a finger or pen touches the panel, and for `holdSeconds` after
/// the last one lifts, decisions keep the way the device was held when the touch began (a turn
/// of the device meanwhile waits; it happens when the hold ends if the device is still held so).
/// A touch is believed for `maxSeconds` at most: touchscreens lose "up" events (suspend, a
/// firmware reset, a palm the firmware drops) and a thumb can rest on the glass for minutes, and
/// neither may keep the screen turned wrong for good.
struct TouchHold: Sendable, Hashable {
    /// How a hold ended.
    enum Ending: Sendable, Hashable {
        /// Its time after the last lift was up.
        case lifted
        /// A touch lasted `maxSeconds` without lifting: no longer believed.
        case stuck
    }

    private(set) var touching = false
    private(set) var liftedAt: Double?
    /// When the hold began (the first touch down of it).
    private(set) var since: Double?
    /// A touch that outlasted the bound and still has not lifted: it holds nothing more.
    private(set) var ignoring = false
    /// The felt orientation decisions use while the hold lasts (`.some(nil)`: unknown then).
    private(set) var held: Orientation??

    var active: Bool { held != nil }

    mutating func touch(_ down: Bool, at now: Double, felt: Orientation?) {
        if down {
            if touching, ignoring { return }   // the stuck touch again (another finger joins it)
            if held == nil {
                held = .some(felt)
                since = now
            }
            touching = true
            liftedAt = nil
        } else if touching {
            touching = false
            if ignoring {
                self = TouchHold()   // the stuck touch lifted at last: nothing is held
            } else {
                liftedAt = now
            }
        }
    }

    /// When the hold ends: `holdSeconds` after the last lift, or `maxSeconds` after it began,
    /// whichever comes first (nil with no hold).
    func ends(after holdSeconds: Double, atMost maxSeconds: Double) -> Double? {
        guard active, let since else { return nil }
        let bound = since + maxSeconds
        guard !touching, let liftedAt else { return bound }
        return min(liftedAt + holdSeconds, bound)
    }

    /// Ends the hold if its time is up; says how it ended.
    mutating func expire(at now: Double, after holdSeconds: Double, atMost maxSeconds: Double) -> Ending? {
        guard let end = ends(after: holdSeconds, atMost: maxSeconds), now >= end else { return nil }
        let stuck = touching
        self = TouchHold()
        if stuck {
            touching = true
            ignoring = true
            return .stuck
        }
        return .lifted
    }

    /// Forgets the hold (the sensor stopped: what was held no longer means anything).
    mutating func release() {
        held = nil
        since = nil
        if !touching { liftedAt = nil }
    }
}

/// The touch hold over a recorded timeline (`wlr-orient detect --touches`): the detector's
/// changes of the felt orientation, and the spans during which a finger touched the panel, give
/// the turns as the screen would make them, each held change when the hold let it through. The
/// same `TouchHold` the controller keeps.
public enum TouchHoldReplay {
    public struct Turn: Sendable, Hashable {
        /// When the screen would turn.
        public var t: Double
        public var orientation: Orientation
        /// When the detector decided it (earlier than `t` for a held turn).
        public var decidedAt: Double
    }

    /// The spans during which something touches: overlapping and back-to-back touches merged.
    public static func touching(_ touches: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var merged: [ClosedRange<Double>] = []
        for span in touches.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// `changes` and `touches` in time order (seconds on one time line); `holdSeconds` after each
    /// lift, `maxSeconds` after a hold began at most. A change the device undid before the hold
    /// ended never turns the screen.
    public static func turns(changes: [(t: Double, orientation: Orientation)], touches: [ClosedRange<Double>],
                             holdSeconds: Double, maxSeconds: Double = .infinity) -> [Turn] {
        enum Step { case down, up, felt(Orientation) }
        var steps: [(t: Double, order: Int, step: Step)] = []
        // What matters is whether anything touches: two fingers at once, or one put down as the
        // other lifts, are one touch (TouchHold counts no fingers).
        for span in touching(touches) {
            steps.append((span.lowerBound, 0, .down))
            steps.append((span.upperBound, 1, .up))
        }
        for change in changes { steps.append((change.t, 2, .felt(change.orientation))) }
        steps.sort { ($0.t, $0.order) < ($1.t, $1.order) }

        var hold = TouchHold()
        var felt: Orientation?
        var decidedAt = 0.0
        var shown: Orientation?
        var out: [Turn] = []
        func show(at t: Double) {
            guard let o = hold.held ?? felt, o != shown else { return }
            shown = o
            out.append(Turn(t: t, orientation: o, decidedAt: decidedAt))
        }
        for (t, _, step) in steps {
            if let end = hold.ends(after: holdSeconds, atMost: maxSeconds), end <= t,
               hold.expire(at: end, after: holdSeconds, atMost: maxSeconds) != nil {
                show(at: end)
            }
            switch step {
            case .down: hold.touch(true, at: t, felt: felt)
            case .up: hold.touch(false, at: t, felt: felt)
            case .felt(let o):
                felt = o
                decidedAt = t
            }
            show(at: t)
        }
        if let end = hold.ends(after: holdSeconds, atMost: maxSeconds),
           hold.expire(at: end, after: holdSeconds, atMost: maxSeconds) != nil {
            show(at: end)
        }
        return out
    }
}

/// The touches of a trace, in a side file (`# wlr-orient-touches v1`, then one `start,end` line
/// per touch, in seconds on the trace's time line; `#` lines are comments), as
/// `wlr-orient detect --touches` reads it.
public enum TouchesReader {
    public static let magic = "# wlr-orient-touches v1"

    public static func parse(_ text: String, file: String) -> Result<[ClosedRange<Double>], TraceError> {
        var spans: [ClosedRange<Double>] = []
        var lineNumber = 0
        func fail(_ message: String) -> Result<[ClosedRange<Double>], TraceError> {
            .failure(TraceError(file: file, line: lineNumber, message: message))
        }
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let body = (line.hasSuffix("\r") ? line.dropLast() : line[...]).trimmingWhitespace()
            if lineNumber == 1 {
                guard body == magic else { return fail("not a touches file: the first line must be '\(magic)'") }
                continue
            }
            if body.isEmpty || body.hasPrefix("#") || body == "start,end" { continue }
            let fields = body.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 2, let start = Double(fields[0].trimmingWhitespace()), let end = Double(fields[1].trimmingWhitespace()),
                  start.isFinite, end.isFinite else {
                return fail("expected 'start,end' (two numbers of seconds), got '\(body)'")
            }
            guard start <= end else { return fail("a touch ends before it starts: \(body)") }
            guard start >= (spans.last?.upperBound ?? -.infinity) else {
                return fail("touches must be in time order and not overlap: \(body)")
            }
            spans.append(start...end)
        }
        if lineNumber <= 1, text.isEmpty { return fail("empty file: the first line must be '\(magic)'") }
        return .success(spans)
    }
}
