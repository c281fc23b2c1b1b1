/// What happened, for machines: the tests and benchmarks wait on these (one JSON object each, on
/// the connection `WLR_ORIENT_EVENTS` names) instead of on the log's sentences, whose wording is free.
/// Times are the monotonic clock's, in microseconds.
public enum OrientEvent: Sendable, Hashable {
    /// The plugin or the daemon started, with the config's panel patterns.
    case started(host: String, panelsMatch: [String])
    case controlSocket(path: String)
    /// An accelerometer was opened (`description`: how it is read, as the log says it).
    case sensorOpened(device: String, description: String)
    case sensorLost(why: String)
    /// No accelerometer was found, and udev is watched for one to be announced.
    case sensorAwaitsUdev
    /// The felt orientation changed with the reading taken at `sampleAt`.
    case decision(Orientation, sampleAt: Int)
    /// What `status` reports changed (every change, as the control socket's watchers hear it).
    case status(ControllerStatus)
    /// A config read (at start, or again): applied (with this many `[[app]]` rules), or refused
    /// with its errors (FILE:LINE:COLUMN: message); sent after the log lines that say so and
    /// after what applying it set off.
    case config(applied: Bool, appRules: Int, errors: [String])
    /// A panel is told to show `orientation` (the plugin commits it; the daemon's compositor
    /// applied it), turning with `transition` (nil: not known).
    case turned(panel: String, Orientation, transition: TransitionKind?)
    /// A panel's transition ended (`revealedAt`: the new picture was first shown; `gaveWay`: to
    /// another turn), with what setting it up cost (`turningCopy`: the rotation's turned copy),
    /// how a rotation's old frame was read for turning on the CPU (nil: not a rotation, or never
    /// read), and whether the renderer could not turn it, so that it faded out unturned instead.
    case transitionEnded(panel: String, TransitionKind, frames: Int, beganAt: Int, revealedAt: Int?, endedAt: Int,
                         setUp: Int, turningCopy: Int?, gaveWay: Bool, oldFrame: OldFrameRead?, fadedUnturned: Bool)
    /// A turn waits for the panel's next frame to carry it (the plugin never commits a transform
    /// alone while a frame of the output is pending).
    case turnWaits(panel: String, Orientation)
    /// The daemon's shield covers a panel: the apply may go, `after` microseconds after the turn
    /// asked for it (what the shield adds before the panel turns); `capture`: the protocol that
    /// took its picture.
    case shieldCovered(panel: String, after: Int, capture: String?)
    /// The shield drew a frame of its transition, at `at` (the monotonic clock), in `cpu`
    /// microseconds of the daemon's thread, `width`×`height` pixels on a canvas `divisor` times
    /// smaller each way than the panel (1: full size); `askedAt`: when the compositor's frame
    /// event that it answers came (nil: it answers the shield's own wake-up).
    case shieldFrame(panel: String, at: Int, cpu: Int, width: Int, height: Int, divisor: Int, askedAt: Int?)
    /// The daemon's compositor lacks what a shield needs (these protocols): every turn is a cut.
    case cannotShield(lacking: [String])
    /// The shield went without playing its transition: the panel turns with a cut, for `why`.
    case shieldCut(panel: String, why: ShieldCut)
    /// The daemon's shield over a panel is gone (its transition played, or it was taken away).
    case shieldGone(panel: String)
    /// A tablet-mode switch device was opened.
    case tabletSwitch(path: String)
    /// Someone else set what a panel shows (`by`: the compositor, a client through output
    /// management, someone else): `kept` until the device turns, or turned back at once.
    case setElsewhere(panel: String, Orientation, by: PanelSetter, kept: Bool)
    /// Another program turns a panel with the device as well (`by`): it is left to that one
    /// (`leftToIt`), or, that one having stopped, turned by us again.
    case otherRotator(panel: String, by: PanelSetter, leftToIt: Bool)
    /// A turn reached the screen after `frames` frames under a transform someone else had set (or
    /// the one the output appeared with).
    case landed(panel: String, Orientation, framesInAnotherTransform: Int)
    /// The config file was saved (it is read again), or its directory went or came back.
    case configChanged(file: String)
    case configDirectory(file: String, present: Bool)
    /// The daemon's compositor would not show `orientation` on a panel (`why`: it refused the test
    /// or the apply, or kept cancelling): the panel stays as the compositor says.
    case refused(panel: String, Orientation, why: String)
    /// An output named as a panel that cannot be one now (disabled, or without a mode): left alone.
    case unusablePanel(name: String)
    /// The control socket refused a client of another user (nil: who it is cannot be known), or
    /// dropped one that does not read what it asked to watch.
    case controlRefused(uid: Int?)
    case controlDropped(unreadBytes: Int)
    /// A line of the log, in its place among the events (for a test of what the log says).
    case log(level: String, line: String)
    /// The events channel had no room for `count` events, which were dropped here.
    case lost(count: Int)
    /// The suggestion's target was first drawn on a panel (`drawnAt`), offering `orientation`, in
    /// `box` of the panel's own pixels (x, y, width, height), `askedAt` when the host was told.
    case suggestionShown(panel: String, Orientation, box: [Int], askedAt: Int, drawnAt: Int)
    /// It faded out and is gone from the panel's frames.
    case suggestionHidden(panel: String, at: Int)

    /// How a rotation's old frame was read for turning on the CPU: from its memory, back through
    /// the renderer (its buffers cannot be mapped: GLES2, Vulkan), or not at all (neither, before
    /// wlroots 0.18: the renderer turns it whole where it can, else it fades).
    public enum OldFrameRead: String, Sendable, Hashable {
        case memory, renderer, unread
    }

    /// Seconds as whole microseconds, the events' unit; a time no clock gives (not finite, or
    /// beyond 290,000 years) as 0, never a trap.
    public static func microseconds(seconds: Double) -> Int {
        let us = (seconds * 1_000_000).rounded()
        return us.isFinite && abs(us) < 9e18 ? Int(us) : 0
    }

    public var name: String {
        switch self {
        case .started: "started"
        case .controlSocket: "control-socket"
        case .sensorOpened: "sensor-opened"
        case .sensorLost: "sensor-lost"
        case .sensorAwaitsUdev: "sensor-awaits-udev"
        case .decision: "decision"
        case .status: "status"
        case .config: "config"
        case .turned: "turned"
        case .transitionEnded: "transition-ended"
        case .turnWaits: "turn-waits"
        case .shieldCovered: "shield-covered"
        case .shieldFrame: "shield-frame"
        case .shieldCut: "shield-cut"
        case .cannotShield: "cannot-shield"
        case .shieldGone: "shield-gone"
        case .tabletSwitch: "tablet-switch"
        case .setElsewhere: "set-elsewhere"
        case .otherRotator: "other-rotator"
        case .landed: "landed"
        case .configChanged: "config-changed"
        case .configDirectory: "config-directory"
        case .refused: "refused"
        case .unusablePanel: "unusable-panel"
        case .controlRefused: "control-refused"
        case .controlDropped: "control-dropped"
        case .log: "log"
        case .lost: "lost"
        case .suggestionShown: "suggestion-shown"
        case .suggestionHidden: "suggestion-hidden"
        }
    }

    /// One object: `event` names it, the rest are its fields.
    public var json: JSON {
        var fields: [(String, JSON)] = [("event", .string(name))]
        switch self {
        case .started(let host, let patterns):
            fields += [("host", .string(host)), ("panels_match", .array(patterns.map(JSON.string)))]
        case .controlSocket(let path):
            fields.append(("path", .string(path)))
        case .sensorOpened(let device, let description):
            fields += [("device", .string(device)), ("description", .string(description))]
        case .sensorLost(let why):
            fields.append(("why", .string(why)))
        case .sensorAwaitsUdev:
            break
        case .decision(let o, let t):
            fields += [("orientation", .string(o.rawValue)), ("sample_at", .int(t))]
        case .status(let status):
            fields.append(("status", status.json))
        case .config(let applied, let rules, let errors):
            fields += [("applied", .bool(applied)), ("app_rules", .int(rules)), ("errors", .array(errors.map(JSON.string)))]
        case .turned(let panel, let o, let kind):
            fields += [("panel", .string(panel)), ("orientation", .string(o.rawValue)),
                       ("transform", .int(Int(o.outputTransform.rawValue))), ("transition", kind.map { .string($0.rawValue) } ?? .null)]
        case .transitionEnded(let panel, let kind, let frames, let began, let revealed, let ended, let setUp, let copy, let gaveWay,
                              let oldFrame, let faded):
            fields += [("panel", .string(panel)), ("transition", .string(kind.rawValue)), ("frames", .int(frames)),
                       ("began_at", .int(began)), ("revealed_at", revealed.map(JSON.int) ?? .null), ("ended_at", .int(ended)),
                       ("set_up_us", .int(setUp)), ("turning_copy_us", copy.map(JSON.int) ?? .null), ("gave_way", .bool(gaveWay)),
                       ("old_frame", oldFrame.map { .string($0.rawValue) } ?? .null), ("faded_unturned", .bool(faded))]
        case .turnWaits(let panel, let o):
            fields += [("panel", .string(panel)), ("orientation", .string(o.rawValue))]
        case .shieldCovered(let panel, let after, let capture):
            fields += [("panel", .string(panel)), ("after_us", .int(after)), ("capture", capture.map(JSON.string) ?? .null)]
        case .shieldFrame(let panel, let at, let cpu, let width, let height, let divisor, let asked):
            fields += [("panel", .string(panel)), ("at", .int(at)), ("cpu_us", .int(cpu)), ("width", .int(width)),
                       ("height", .int(height)), ("divisor", .int(divisor)), ("asked_at", asked.map(JSON.int) ?? .null)]
        case .cannotShield(let lacking):
            fields.append(("lacking", .array(lacking.map(JSON.string))))
        case .shieldCut(let panel, let why):
            fields += [("panel", .string(panel)), ("why", .string(why.code)), ("line", .string(why.line))]
        case .shieldGone(let panel):
            fields.append(("panel", .string(panel)))
        case .tabletSwitch(let path):
            fields.append(("path", .string(path)))
        case .setElsewhere(let panel, let o, let by, let kept):
            fields += [("panel", .string(panel)), ("orientation", .string(o.rawValue)), ("by", .string(by.rawValue)),
                       ("kept", .bool(kept))]
        case .otherRotator(let panel, let by, let leftToIt):
            fields += [("panel", .string(panel)), ("by", .string(by.rawValue)), ("left_to_it", .bool(leftToIt))]
        case .landed(let panel, let o, let frames):
            fields += [("panel", .string(panel)), ("orientation", .string(o.rawValue)), ("frames_in_another_transform", .int(frames))]
        case .configChanged(let file):
            fields.append(("file", .string(file)))
        case .configDirectory(let file, let present):
            fields += [("file", .string(file)), ("present", .bool(present))]
        case .refused(let panel, let o, let why):
            fields += [("panel", .string(panel)), ("orientation", .string(o.rawValue)), ("why", .string(why))]
        case .unusablePanel(let name):
            fields.append(("name", .string(name)))
        case .controlRefused(let uid):
            fields.append(("uid", uid.map(JSON.int) ?? .null))
        case .controlDropped(let bytes):
            fields.append(("unread_bytes", .int(bytes)))
        case .log(let level, let line):
            fields += [("level", .string(level)), ("line", .string(line))]
        case .lost(let count):
            fields.append(("count", .int(count)))
        case .suggestionShown(let panel, let o, let box, let asked, let drawn):
            fields += [("panel", .string(panel)), ("orientation", .string(o.rawValue)), ("box", .array(box.map(JSON.int))),
                       ("asked_at", .int(asked)), ("drawn_at", .int(drawn))]
        case .suggestionHidden(let panel, let at):
            fields += [("panel", .string(panel)), ("at", .int(at))]
        }
        return .object(fields)
    }
}
