import CEventLoop
import CPixels
import CWaylandClient
import OrientCore
import OrientService
import OrientSystem

/// One shield over one turning panel: the picture of the panel (`PanelCapture`), the overlay it is
/// shown on (a layer-shell surface in the overlay layer, no input), and the transition's frames
/// drawn into shared memory. It carries out what `PanelShield` (the core) says and reports what
/// happened to it; every buffer exists only while the shield does.
final class Shield: CallbackOwner {
    typealias Key = HeadsReconciler.HeadKey

    /// The head it covers, and its name.
    let key: Key
    private let panel: String
    private var steps: PanelShield
    private let parts: ShieldParts
    /// The wl_output it captures and lays its overlay on.
    let output: OpaquePointer
    private let loop: OpaquePointer
    /// The shield is on screen (or could not be laid): the apply may go.
    private let onCovered: () -> Void
    /// The shield is gone (finished, failed or removed): forget it.
    private let onGone: (Shield) -> Void
    /// It goes without (the rest of) its transition, for this reason: for the reconciler to say,
    /// and to learn from.
    private let onCut: (ShieldCut) -> Void

    // The capture, then the picture: raw panel pixels (the output's buffer as it is scanned out).
    private var capture: PanelCapture?
    private var format: UInt32 = 0
    private var width = 0, height = 0, stride = 0
    /// The shared memory every buffer is in (unmapped when it goes).
    private var shared: SharedMemory?
    private var memory: UnsafeMutableRawPointer? { shared?.base }
    private var pool: OpaquePointer?
    /// The capture's target: the picture's memory, in the format the compositor copies in.
    private var copyTarget: OpaquePointer?
    /// Buffer 0 shows the picture (opaque); 1 and 2 take turns with the transition's frames at the
    /// panel's size, 3 and 4 with its turning frames on the small canvas (where there is one).
    private var buffers: [OpaquePointer?] = [nil, nil, nil, nil, nil]
    private var busy = [false, false, false, false, false]
    private var lastDrawn = 0
    /// The rows each frame buffer's last turned frame drew into.
    private var drawnRows: [Range<Int>?] = [nil, nil, nil, nil, nil]
    /// How many times smaller (each way) than the panel the turning frames are drawn
    /// (`TransitionRun.turningDivisor`), on a canvas the compositor scales up (wp_viewporter); 1
    /// where it cannot: then they are drawn at the panel's size, into buffers 1 and 2.
    private var divisor = 1
    private var canvasWidth = 0, canvasHeight = 0
    /// The picture scaled down by `divisor`, which the turning frames are drawn from.
    private var small: UnsafeMutablePointer<pixels_picture>?

    // The overlay.
    private var surface: OpaquePointer?
    private var viewport: OpaquePointer?
    private var layer: OpaquePointer?
    private var callback: OpaquePointer?
    /// When the frame event (or the wake) the next frame answers came: for the debug line.
    private var frameAskedMs: Double?
    private var timer: LoopSource?
    private var configured: (width: Int, height: Int)?
    /// Removed: nothing of it may be made again (a failure reported while a list of commands is
    /// carried out removes it before the rest of the list, such as a wake-up, is reached).
    private var isGone = false

    init(cover: HeadsReconciler.Cover, output: OpaquePointer, parts: ShieldParts, loop: OpaquePointer,
         covered: @escaping () -> Void, cut: @escaping (ShieldCut) -> Void, gone: @escaping (Shield) -> Void) {
        key = cover.key
        panel = cover.panel
        steps = PanelShield(from: cover.from, to: cover.to, plan: cover.transition)
        self.parts = parts
        self.output = output
        self.loop = loop
        onCovered = covered
        onCut = cut
        onGone = gone
    }

    func start() {
        startedMs = monotonicMilliseconds()
        perform(PanelShield.start)
    }

    /// When it started: what covering the panel cost before the apply could go is measured from it.
    private var startedMs = 0.0

    /// Something happened to it from outside (the apply was answered, the output went).
    func report(_ event: PanelShield.Event) {
        let commands = steps.handle(event)
        Log.debug("shield: \(event) -> \(commands)")
        perform(commands)
    }

    private func perform(_ commands: [PanelShield.Command]) {
        for command in commands {
            // Once removed, only what concerns others still goes: the apply's release, a log line.
            if isGone {
                switch command {
                case .covered, .info, .cut: break
                default: continue
                }
            }
            switch command {
            case .capture: startCapture()
            case .lay: lay()
            case .show(let transform): show(transform)
            case .showAhead(let transform): present(buffer: 0, under: transform, ahead: true)
            case .covered:
                // For benchmarks/daemon_shield.py: the time the shield adds before the apply.
                // And which protocol took its picture (none when it was laid without one).
                Events.emit(.shieldCovered(panel: panel, after: OrientEvent.microseconds(seconds: (monotonicMilliseconds() - startedMs) / 1000),
                                           capture: captureProtocol?.rawValue))
                onCovered()
            case .draw(let placement): draw(placement)
            case .wake(let afterMs):
                // The frame this answers waits: the wake is the one the next frame answers.
                frameAskedMs = nil
                wake(afterMs: afterMs)
            case .remove: remove()
            case .info(let line): Log.info(line)
            case .cut(let why): onCut(why)
            }
        }
    }

    // MARK: the picture

    /// The protocol that took the picture, once it has.
    private var captureProtocol: ShieldCapture?

    private func startCapture() {
        // Unowned: the capture is the shield's, destroyed before it goes.
        let reports = CaptureReports(
            wants: { [unowned self] in bufferKnown(format: $0, width: $1, height: $2, stride: $3) },
            ready: { [unowned self] in captured(yInverted: $0) },
            failed: { [unowned self] in report(.failed($0)) })
        guard let capture = parts.capture(output, reports: reports) else { return report(.failed(.captureRefused)) }
        self.capture = capture
        captureProtocol = parts.capture
    }

    /// The compositor said which buffer it copies into: make it (and the frames' buffers beside).
    private func bufferKnown(format: UInt32, width: UInt32, height: UInt32, stride: UInt32) {
        guard buffers[0] == nil, let capture else { return }
        guard ShieldFormats.drawn(format), width > 0, height > 0, stride >= width * 4, width <= 16384, height <= 16384 else {
            return report(.failed(.format(format)))
        }
        self.format = format
        self.width = Int(width)
        self.height = Int(height)
        self.stride = Int(stride)
        if parts.viewporter != nil {
            divisor = TransitionRun.turningDivisor(width: self.width, height: self.height)
        }
        canvasWidth = (self.width + divisor - 1) / divisor
        canvasHeight = (self.height + divisor - 1) / divisor
        let one = self.stride * self.height
        let canvasOne = divisor > 1 ? canvasWidth * 4 * canvasHeight : 0
        guard let shm = parts.shm, makeMemory(size: one * 3 + canvasOne * 2, shm: shm) else {
            return report(.failed(.noSharedMemory))
        }
        // The copy goes into the picture's memory in the format the compositor asked for; what
        // is shown is ARGB, all three buffers: a surface whose buffers change format is one that
        // wlroots 0.19 and later may go on treating as opaque (it updates the texture in place),
        // hiding the apps under a fading frame. The picture is made opaque when it arrives.
        guard let pool, let copyTarget = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), format) else {
            return report(.failed(.noSharedMemory))
        }
        self.copyTarget = copyTarget
        for index in 0..<3 {
            guard let buffer = wl_shm_pool_create_buffer(pool, Int32(one * index), Int32(width), Int32(height), Int32(stride),
                                                   ShieldFormats.argb) else {
                return report(.failed(.noSharedMemory))
            }
            buffers[index] = buffer
            wl_buffer_add_listener(buffer, Self.bufferListener, callbackContext)
        }
        for index in 3..<5 where divisor > 1 {
            guard let buffer = wl_shm_pool_create_buffer(pool, Int32(offset(of: index)), Int32(canvasWidth), Int32(canvasHeight),
                                                         Int32(canvasWidth * 4), ShieldFormats.argb) else {
                return report(.failed(.noSharedMemory))
            }
            buffers[index] = buffer
            wl_buffer_add_listener(buffer, Self.bufferListener, callbackContext)
        }
        capture.copy(into: copyTarget)
    }

    /// Where buffer `index`'s pixels begin in the shared memory.
    private func offset(of index: Int) -> Int {
        index < 3 ? stride * height * index : stride * height * 3 + canvasWidth * 4 * canvasHeight * (index - 3)
    }

    private func makeMemory(size: Int, shm: OpaquePointer) -> Bool {
        let fd = glue_shm_file(size)
        guard fd >= 0 else { return false }
        let file = FileDescriptor(rawValue: fd)
        defer { file.close() }
        guard case .success(let mapped) = SharedMemory.map(file, size: size) else { return false }
        shared = mapped
        pool = wl_shm_create_pool(shm, fd, Int32(size))
        return pool != nil
    }

    private func captured(yInverted: Bool) {
        capture?.destroy()
        capture = nil
        if let copyTarget { wl_buffer_destroy(copyTarget) }
        copyTarget = nil
        if yInverted, let memory { pixels_flip_rows(memory, stride, Int32(height)) }
        if format == ShieldFormats.xrgb, let memory { pixels_make_opaque(memory, stride, Int32(width), Int32(height)) }
        report(.captured)
    }

    // MARK: the overlay

    private func lay() {
        guard let compositor = parts.compositor, let layerShell = parts.layerShell,
              let surface = wl_compositor_create_surface(compositor) else {
            return report(.failed(.noOverlay))
        }
        self.surface = surface
        if let viewporter = parts.viewporter { viewport = wp_viewporter_get_viewport(viewporter, surface) }
        // An empty input region: touches and clicks go through to the apps beneath.
        if let region = wl_compositor_create_region(compositor) {
            wl_surface_set_input_region(surface, region)
            wl_region_destroy(region)
        }
        guard let layer = zwlr_layer_shell_v1_get_layer_surface(layerShell, surface, output, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue,
                                                                  "wlr-orient-shield") else {
            return report(.failed(.noOverlay))
        }
        self.layer = layer
        zwlr_layer_surface_v1_add_listener(layer, Self.layerListener, callbackContext)
        // All four edges: the whole output.
        zwlr_layer_surface_v1_set_anchor(layer, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
                                             | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue)
        zwlr_layer_surface_v1_set_exclusive_zone(layer, -1)  // over panels and bars too
        zwlr_layer_surface_v1_set_keyboard_interactivity(layer, 0)
        wl_surface_commit(surface)
    }

    private func configure(serial: UInt32, width: UInt32, height: UInt32) {
        guard let layer else { return }
        zwlr_layer_surface_v1_ack_configure(layer, serial)
        configured = (Int(width), Int(height))
        report(.configured(width: Int(width), height: Int(height)))
    }

    /// The scale that makes the panel's buffer, under `transform`, the overlay's configured size
    /// (nil: none does, as at a fractional scale).
    /// `ahead`: at the size the overlay will have once the panel shows `steps.to` (a quarter turn
    /// swaps the configured size).
    private func scale(under transform: OutputTransform, ahead: Bool = false) -> Int32? {
        guard var configured, configured.width > 0, configured.height > 0 else { return nil }
        if ahead, steps.from.swapsAxes != steps.to.swapsAxes { configured = (configured.height, configured.width) }
        let (w, h) = transform.swapsAxes ? (height, width) : (width, height)
        let scale = w / configured.width
        return scale >= 1 && scale * configured.width == w && scale * configured.height == h ? Int32(scale) : nil
    }

    /// The picture, unchanged, under `transform`: pixel for pixel what the panel shows.
    private func show(_ transform: OutputTransform) {
        present(buffer: 0, under: transform)
    }

    private func present(buffer index: Int, under transform: OutputTransform, ahead: Bool = false) {
        guard let surface, let buffer = buffers[index] else { return }
        guard let scale = scale(under: transform, ahead: ahead) else {
            return report(.failed(.overlayScale(configured: configured.map { "\($0.width)x\($0.height)" } ?? "none", width: width, height: height)))
        }
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_set_buffer_transform(surface, transform.rawValue)
        if index >= 3, let viewport, let configured {
            // The small canvas, stretched over the overlay by the compositor.
            wl_surface_set_buffer_scale(surface, 1)
            wp_viewport_set_destination(viewport, Int32(configured.width), Int32(configured.height))
        } else {
            if let viewport { wp_viewport_set_destination(viewport, -1, -1) }
            wl_surface_set_buffer_scale(surface, scale)
        }
        wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
        if let callback { wl_callback_destroy(callback) }
        callback = wl_surface_frame(surface)
        if let callback { wl_callback_add_listener(callback, Self.frameListener, callbackContext) }
        busy[index] = true
        wl_surface_commit(surface)
    }

    private func frameDone() {
        if let callback { wl_callback_destroy(callback) }
        callback = nil
        let now = monotonicMilliseconds()
        frameAskedMs = now
        report(.presented)
        report(.frame(at: now))
    }

    // MARK: the transition

    private func draw(_ placement: OldFramePlacement) {
        guard let memory else { return }
        // The thread's CPU clock is a system call: read only for the debug line.
        let started = Self.threadCPUMs
        // Where the compositor scales a canvas up, every frame of the transition is drawn on it
        // from the small copy, turning or fading: fading the whole panel's pixels costs about as
        // much memory traffic each frame as copying it twice (1.7 ms at 1920x1200 here). Held
        // frames stay the full picture.
        let onCanvas = divisor > 1
        // Of the two buffers of its kind, the one not drawn last and not held by the compositor;
        // both held: try again shortly.
        let pair = onCanvas ? [3, 4] : [1, 2]
        let order = pair[0] == lastDrawn ? [pair[1], pair[0]] : pair
        guard let index = order.first(where: { !busy[$0] }) else { return wake(afterMs: 4) }
        lastDrawn = index
        let target = (memory + offset(of: index)).assumingMemoryBound(to: UInt32.self)
        let picture = memory.assumingMemoryBound(to: UInt32.self)
        let alpha = UInt32((min(max(placement.alpha, 0), 1) * 255).rounded())
        if placement.isMoved || onCanvas {
            // The canvas: the small one, or the buffer itself at the panel's size.
            let (rowPixels, canvasRows) = onCanvas ? (canvasWidth, canvasHeight) : (stride / 4, height)
            // Transparent but for the picture: only the rows this buffer's last frame drew need
            // clearing (new shared memory is zero).
            if let rows = drawnRows[index] { (target + rows.lowerBound * rowPixels).update(repeating: 0, count: rows.count * rowPixels) }
            drawnRows[index] = nil
            if small == nil { small = pixels_picture_scaled_down(memory, stride, Int32(width), Int32(height), Int32(divisor)) }
            if let small, let canvas = placement.canvasDraw(width: canvasWidth, height: canvasHeight, canvasWidth: rowPixels,
                                                            canvasHeight: canvasRows, scale: 1,
                                                            pictureWidth: Int(small.pointee.width), pictureHeight: Int(small.pointee.height)) {
                // Scale 1: the canvas's used part at (left, top), within it (the core clips it).
                if pixels_draw_turned(target, Int32(rowPixels), Int32(canvasRows), Int32(canvas.left), Int32(canvas.top), small,
                                      Int32(canvas.width), Int32(canvas.height),
                                      canvas.rows.map { pixels_span(start: Int32($0.start), end: Int32($0.end)) },
                                      canvas.pictureMap, alpha) {
                    drawnRows[index] = canvas.top..<(canvas.top + canvas.height)
                }
            }
        } else {
            pixels_fade(target, picture, stride / 4 * height, alpha)
        }
        present(buffer: index, under: steps.to)
        // For benchmarks/daemon_shield.py: when each frame went out and what drawing it cost.
        // The frame event it answers tells apart a frame the daemon was late to draw from one the
        // compositor was late to ask for.
        func micro(_ ms: Double) -> Int { OrientEvent.microseconds(seconds: ms / 1000) }
        Events.emit(.shieldFrame(panel: panel, at: micro(monotonicMilliseconds()), cpu: micro(Self.threadCPUMs - started),
                                 width: width, height: height, divisor: onCanvas ? divisor : 1, askedAt: frameAskedMs.map(micro)))
        frameAskedMs = nil
    }

    /// This thread's CPU time, in milliseconds.
    private static var threadCPUMs: Double { threadCPUSeconds() * 1000 }

    private func wake(afterMs: Double) {
        if timer == nil {
            timer = LoopSource.timer(on: loop) { [unowned self] in
                let now = monotonicMilliseconds()
                // Both buffers were held: the frame still answers the event that asked for it.
                if frameAskedMs == nil { frameAskedMs = now }
                report(.frame(at: now))
            }
        }
        timer?.arm(milliseconds: Int32(max(1, afterMs.rounded(.up))))
    }

    // MARK: going

    /// Destroys everything of the shield (once); its owner forgets it.
    func remove() {
        guard !isGone else { return }
        isGone = true
        timer?.remove()
        timer = nil
        capture?.destroy()
        capture = nil
        if let callback { wl_callback_destroy(callback) }
        callback = nil
        if let viewport { wp_viewport_destroy(viewport) }
        viewport = nil
        if let layer { zwlr_layer_surface_v1_destroy(layer) }
        layer = nil
        if let surface { wl_surface_destroy(surface) }
        surface = nil
        if let copyTarget { wl_buffer_destroy(copyTarget) }
        copyTarget = nil
        for case let buffer? in buffers { wl_buffer_destroy(buffer) }
        buffers = [nil, nil, nil, nil, nil]
        if let pool { wl_shm_pool_destroy(pool) }
        pool = nil
        shared = nil
        pixels_picture_destroy(small)
        small = nil
        onGone(self)
    }

    // MARK: listeners

    nonisolated(unsafe) private static let bufferListener = permanentListener(wl_buffer_listener(release: { data, buffer in
        guard let shield = owner(data), let index = shield.buffers.firstIndex(where: { $0 == buffer }) else { return }
        shield.busy[index] = false
        }))

    nonisolated(unsafe) private static let layerListener = permanentListener(zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, width, height in owner(data)?.configure(serial: serial, width: width, height: height) },
        closed: { data, _ in owner(data)?.report(.failed(.overlayClosed)) }))

    nonisolated(unsafe) private static let frameListener = permanentListener(wl_callback_listener(done: { data, _, _ in owner(data)?.frameDone() }))
}
