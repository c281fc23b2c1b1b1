import Glibc  // for cos and sin only

/// One transition on one panel, frame by frame: what to draw of the old frame (the last one the
/// panel showed before its transform changed) over the host's rendering of the new layout.
///
/// First the old frame is held, unchanged and opaque, until the clients have committed buffers of
/// their new size (or the timeout passes): no frame shows a client's old-size buffer. Then it
/// turns (`rotate`) or stays still (`crossfade`) while it fades out; `none` cuts at once. Times
/// are milliseconds on any monotonic clock.
public struct TransitionRun: Sendable {
    public let plan: TransitionPlan
    /// How far the content turns on the panel, in quarter turns clockwise: 1, -1 or 2 (0 when
    /// the transform does not change). The shortest way; a half turn goes clockwise.
    public let quarterTurns: Int
    public let startedAt: Double
    /// When the old frame began to go (nil while it is held).
    public private(set) var revealedAt: Double?
    private var lastFrameAt: Double

    public init(plan: TransitionPlan, from old: OutputTransform, to new: OutputTransform, at now: Double) {
        self.plan = plan
        // A transform turns the content counter-clockwise by its quarter turns, so going from
        // `old` to `new` turns it clockwise by old - new.
        let turns = ((Int(old.rawValue) - Int(new.rawValue)) % 4 + 4) % 4
        quarterTurns = turns == 3 ? -1 : turns
        startedAt = now
        lastFrameAt = now
    }

    /// Whether the clients' buffers change size (a quarter turn): only then is there a new
    /// layout to wait for.
    public var waitsForClients: Bool { quarterTurns % 2 != 0 }

    /// Whether a client sent a configure for the new layout (serial `awaited`) no longer holds the
    /// old frame: it has committed that configure (`committed`: the serial of the last one it
    /// committed), or it was shown and is hidden now (nothing of it is on screen to wait for).
    /// Serials wrap around.
    public static func clientAnswered(awaited: UInt32, committed: UInt32, mapped: Bool, everConfigured: Bool) -> Bool {
        if !mapped && everConfigured { return true }
        return Int32(bitPattern: committed &- awaited) >= 0
    }

    /// How long the old frame takes to go once revealed.
    public var durationMs: Double {
        let base = Double(max(plan.durationMs, 0))
        return plan.kind == .rotate && abs(quarterTurns) == 2 ? base * 1.3 : base
    }

    /// The frame at `now`. `clientsReady`: every client in front has committed its new size.
    /// `turningReady`: the picture a rotation turns is made (the plugin makes it after the first
    /// frame, so that the first frame of the new transform waits for nothing); until then the
    /// old frame is held, whatever the clients and the timeout say.
    public mutating func frame(at now: Double, clientsReady: Bool, turningReady: Bool = true) -> TransitionFrame {
        defer { lastFrameAt = max(lastFrameAt, now) }
        if revealedAt == nil {
            let timedOut = now - startedAt >= Double(max(plan.timeoutMs, 0))
            guard clientsReady || !waitsForClients || timedOut else { return .old(.held) }
            guard turningReady || plan.kind != .rotate else { return .old(.held) }
            // The reveal counts from the frame before, so the first frame it shows has moved;
            // at most one frame (60 Hz) before, where nothing was drawn while it was held (the
            // daemon's shield wakes once at the end of its hold).
            revealedAt = max(lastFrameAt, now - Self.revealLeadMs)
        }
        let elapsed = now - (revealedAt ?? now)
        guard plan.beginsWithTheOldFrame, durationMs > 0, elapsed < durationMs else { return .finished }
        let progress = plan.curve.value(at: elapsed / durationMs)
        // What is left of the old frame would not change a pixel (8 bits a channel): over.
        guard 1 - progress >= Self.leastVisibleAlpha else { return .finished }
        if plan.kind == .crossfade {
            return .old(OldFramePlacement(angle: 0, sizeProgress: 0, quarterTurns: 0, alpha: 1 - progress))
        }
        // The whole picture turns, at full size, its corners cut by the panel's edges (as Android
        // and KWin turn it): what it covers changes a little each frame, never in a step.
        return .old(OldFramePlacement(angle: Double(quarterTurns) * .pi / 2 * progress, sizeProgress: progress,
                                      quarterTurns: quarterTurns, alpha: 1 - progress))
    }

    /// How many times smaller (each way) than the panel the turning picture is while it moves: the
    /// old frame is copied that much smaller once, and each frame turns the copy on the CPU into a
    /// canvas of the same scale, which the renderer (or the compositor, for the daemon) scales up.
    /// The smallest that keeps a frame's turned pixels within `turningPixelBudget`: 1 up to 512x512,
    /// 3 at 1920x1200 (640x400), 4 at 2560x1600.
    public static func turningDivisor(width: Int, height: Int) -> Int {
        guard width > 0, height > 0 else { return 1 }
        let divisor = (1...16).first { d in
            let (w, h) = ((width + d - 1) / d, (height + d - 1) / d)
            return w * h <= turningPixelBudget
        }
        return divisor ?? 16
    }

    /// The most pixels a turning frame turns on the CPU. Measured on this kind of machine, turning
    /// a picture at 45 degrees with nearest-neighbour fetches: 256k pixels (640x400) in 0.6–0.8 ms,
    /// 576k (960x600) in 1.3–2.0 ms; a phone's core is about ten times slower.
    public static let turningPixelBudget = 512 * 512

    /// How long before the first frame of a reveal the reveal counts from, at most.
    static let revealLeadMs = 1000.0 / 60

    /// One step of an 8-bit alpha: less changes no pixel (pixman keeps 8 bits of it).
    static let leastVisibleAlpha = 1.0 / 255
}

public enum TransitionFrame: Sendable, Hashable {
    /// Draw the old frame, placed so, over the new layout.
    case old(OldFramePlacement)
    /// Over: draw nothing more, let the old frame go.
    case finished
}

/// Where the old frame goes on the panel's buffer, and how opaque it is.
public struct OldFramePlacement: Sendable, Hashable {
    /// Radians, clockwise on the panel (in buffer pixels, y down), about the panel's centre.
    public var angle: Double
    /// How far its size has gone from the old layout's shape to the new one's (0…1).
    public var sizeProgress: Double
    public var quarterTurns: Int
    public var alpha: Double

    public init(angle: Double, sizeProgress: Double, quarterTurns: Int, alpha: Double) {
        self.angle = angle
        self.sizeProgress = sizeProgress
        self.quarterTurns = quarterTurns
        self.alpha = alpha
    }

    /// As it was: unturned and opaque.
    public static let held = OldFramePlacement(angle: 0, sizeProgress: 0, quarterTurns: 0, alpha: 1)

    /// What a renderer that cannot draw this placement draws instead, the nearest it can: the old
    /// picture as it was, unturned, as faint as this one (a rotation becomes a fade, never an
    /// empty frame). Every renderer draws an unturned picture across the panel.
    public var unturned: OldFramePlacement {
        OldFramePlacement(angle: 0, sizeProgress: 0, quarterTurns: 0, alpha: alpha)
    }

    /// The row-major 3×3 matrix that maps the unit square onto the buffer (wlroots 0.15's
    /// `wlr_render_texture_with_matrix`, whose matrices are in the buffer's pixels on every
    /// renderer). The quad turns about the centre; across a quarter turn its sides go from the old
    /// layout's (width × height) to the new one's. It is not scaled down to stay whole: what lies
    /// beyond the panel is cut off, so that it covers nearly all of the panel on every frame.
    public func matrix(width: Double, height: Double) -> [Float] {
        let (w, h) = sides(width: width, height: height)
        let c = cos(angle), s = sin(angle)
        let m = [c * w, -s * h, (width - (c * w - s * h)) / 2,
                 s * w, c * h, (height - (s * w + c * h)) / 2,
                 0, 0, 1]
        return m.map { Float($0) }
    }

    private func sides(width: Double, height: Double) -> (Double, Double) {
        var w = width, h = height
        if quarterTurns % 2 != 0 {
            w = width + (height - width) * sizeProgress
            h = height + (width - height) * sizeProgress
        }
        return (w, h)
    }

    /// Turned or reshaped: drawn from the smaller copy (the held and cross-fading frames are
    /// drawn from the full one, untransformed).
    public var isMoved: Bool { angle != 0 || (quarterTurns % 2 != 0 && sizeProgress != 0) }

    /// How much of the panel (0…1) the picture covers: the quad cut by the panel's edges.
    public func coverage(width: Double, height: Double) -> Double {
        guard width > 0, height > 0 else { return 0 }
        let m = matrix(width: width, height: height).map(Double.init)
        var polygon = [(0.0, 0.0), (1, 0), (1, 1), (0, 1)].map { (x, y) in (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5]) }
        // Sutherland–Hodgman against each of the panel's four edges.
        let edges: [((Double, Double)) -> Double] = [{ $0.0 }, { width - $0.0 }, { $0.1 }, { height - $0.1 }]
        for inside in edges where !polygon.isEmpty {
            var kept: [(Double, Double)] = []
            for (i, b) in polygon.enumerated() {
                let a = polygon[(i + polygon.count - 1) % polygon.count]
                let (da, db) = (inside(a), inside(b))
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    kept.append((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t))
                }
                if db >= 0 { kept.append(b) }
            }
            polygon = kept
        }
        let twice = polygon.indices.reduce(0.0) { sum, i in
            let (a, b) = (polygon[i], polygon[(i + 1) % polygon.count])
            return sum + a.0 * b.1 - b.0 * a.1
        }
        return abs(twice) / 2 / (width * height)
    }

    /// Where the quad lies on the buffer, as boxes (x, y, width, height): drawing through these
    /// scissors spares pixman the pixels the quad does not cover (its cost is per pixel drawn).
    /// Unturned, the quad's own box; turned, `strips` horizontal bands, each cut to the quad's
    /// extent in it.
    public func footprint(width: Int, height: Int, strips: Int = 16) -> [Box] {
        guard width > 0, height > 0 else { return [] }
        let m = matrix(width: Double(width), height: Double(height)).map(Double.init)
        let corners = [(0.0, 0.0), (1, 0), (1, 1), (0, 1)].map { (x, y) in (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5]) }
        if angle == 0 {
            return [Self.box(xs: corners.map(\.0), y0: corners.map(\.1).min() ?? 0, y1: corners.map(\.1).max() ?? 0,
                             width: width, height: height)].compactMap { $0 }
        }
        let bands = max(1, strips)
        return (0..<bands).compactMap { i in
            let y0 = Double(height * i / bands), y1 = Double(height * (i + 1) / bands)
            // The quad's x extent between y0 and y1: its corners inside the band and its edges'
            // crossings of the band's two lines.
            var xs = corners.filter { $0.1 >= y0 && $0.1 <= y1 }.map(\.0)
            for k in 0..<4 {
                let (a, b) = (corners[k], corners[(k + 1) % 4])
                for line in [y0, y1] where (a.1 - line) * (b.1 - line) <= 0 && a.1 != b.1 {
                    xs.append(a.0 + (b.0 - a.0) * (line - a.1) / (b.1 - a.1))
                }
            }
            return Self.box(xs: xs, y0: y0, y1: y1, width: width, height: height)
        }
    }

    /// How to draw the moved picture through a canvas `scale` times smaller each way than the
    /// buffer (`canvasWidth` × `canvasHeight`: the whole canvas; `pictureWidth` × `pictureHeight`:
    /// the copy of the old frame it is turned from). The canvas's top-left corner lies on the
    /// footprint's corner; drawn through the footprint's boxes, nothing of it beyond them shows.
    /// Nil when nothing of the picture is on the buffer.
    public func canvasDraw(width: Int, height: Int, canvasWidth: Int, canvasHeight: Int, scale: Int,
                           pictureWidth: Int, pictureHeight: Int) -> CanvasDraw? {
        let boxes = footprint(width: width, height: height)
        guard scale > 0, canvasWidth > 0, canvasHeight > 0,
              let left = boxes.map(\.x).min(), let top = boxes.map(\.y).min(),
              let right = boxes.map({ $0.x + $0.width }).max(), let bottom = boxes.map({ $0.y + $0.height }).max()
        else { return nil }
        let m = matrix(width: Double(width), height: Double(height)).map(Double.init)
        let det = m[0] * m[4] - m[1] * m[3]
        guard det != 0 else { return nil }
        // A canvas pixel (x, y) lies at buffer (left + s·x, top + s·y); the matrix's inverse takes
        // that to the unit square, and the picture's size to its pixels.
        let s = Double(scale), pw = Double(pictureWidth), ph = Double(pictureHeight)
        let ox = Double(left) - m[2], oy = Double(top) - m[5]
        let map = [pw * m[4] * s / det, -pw * m[1] * s / det, pw * (m[4] * ox - m[1] * oy) / det,
                   -ph * m[3] * s / det, ph * m[0] * s / det, ph * (m[0] * oy - m[3] * ox) / det]
        let onCanvas = [Double(canvasWidth) * s, 0, Double(left), 0, Double(canvasHeight) * s, Double(top), 0, 0, 1]
        let usedWidth = min(canvasWidth, (right - left + scale - 1) / scale)
        let usedHeight = min(canvasHeight, (bottom - top + scale - 1) / scale)
        // Each canvas row only as far as the footprint's boxes over its buffer rows reach: nothing
        // beyond them shows, and at 45 degrees that is 40% fewer pixels to turn than the whole box.
        let rows = (0..<usedHeight).map { row -> CanvasDraw.Span in
            let y0 = top + row * scale, y1 = y0 + scale
            let over = boxes.filter { $0.y < y1 && $0.y + $0.height > y0 }
            guard let from = over.map(\.x).min(), let to = over.map({ $0.x + $0.width }).max() else { return .init(start: 0, end: 0) }
            return .init(start: max(0, (from - left) / scale), end: min(usedWidth, (to - left + scale - 1) / scale))
        }
        return CanvasDraw(left: left, top: top, width: usedWidth, height: usedHeight, rows: rows,
                          pictureMap: map, matrix: onCanvas.map { Float($0) }, boxes: boxes)
    }

    /// The moved picture drawn through a canvas (see `canvasDraw`).
    public struct CanvasDraw: Sendable, Hashable {
        /// Where the canvas's top-left corner lies on the buffer (its matrix's translation).
        public var left, top: Int
        /// The part of the canvas in use, from its top-left corner.
        public var width, height: Int
        /// The pixels to fill in each of its rows (the rest does not show).
        public var rows: [Span]
        /// Row-major 2 × 3: a canvas pixel's coordinates to the picture's, in its pixels.
        public var pictureMap: [Double]
        /// Row-major 3 × 3 (wlr_render_texture_with_matrix): the whole canvas onto the buffer.
        public var matrix: [Float]
        /// Where to draw it (the footprint).
        public var boxes: [Box]

        /// Canvas columns start..<end of one row.
        public struct Span: Sendable, Hashable {
            public var start, end: Int
        }
    }

    /// The box from the least to the greatest of `xs` and from y0 to y1, a pixel wider each
    /// side, on the buffer; nil when nothing of it is.
    private static func box(xs: [Double], y0: Double, y1: Double, width: Int, height: Int) -> Box? {
        guard let low = xs.min(), let high = xs.max() else { return nil }
        let x0 = max(0, Int(low.rounded(.down)) - 1), x1 = min(width, Int(high.rounded(.up)) + 1)
        let top = max(0, Int(y0.rounded(.down))), bottom = min(height, Int(y1.rounded(.up)))
        return x1 > x0 && bottom > top ? Box(x: x0, y: top, width: x1 - x0, height: bottom - top) : nil
    }

    public struct Box: Sendable, Hashable {
        public var x, y, width, height: Int
    }
}
