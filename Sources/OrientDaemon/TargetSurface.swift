import CWaylandClient
import OrientCore
import OrientService
import OrientSystem

/// The offered turn's target over one panel, from outside the compositor: a small layer surface
/// on the overlay layer, in the corner the core chose, drawn in the panel's own pixels (its buffer
/// carries the output's transform, so the arrow stands as the plugin draws it). The surface takes
/// its touches and clicks itself, so the app beneath never gets a tap meant for it; a tap that
/// begins and ends on it (`Contacts`) is reported.
final class TargetSurface: CallbackOwner {
    private(set) var target: SuggestionTarget
    private var surface: OpaquePointer?
    private var layer: OpaquePointer?
    private var buffer: OpaquePointer?
    private var callback: OpaquePointer?
    private var touch: OpaquePointer?
    private var pointer: OpaquePointer?
    private var shared: SharedMemory?
    private let box: PixelBox
    private let scale: Int32
    private let transform: Int32
    private let panel: String
    private let askedAt = monotonicSeconds()
    private var contacts = Contacts()
    /// The pointer is on the surface.
    private var hovered = false
    private let tapped: () -> Void
    private let hover: (Bool) -> Void
    /// The compositor closed it: its owner forgets it (a target offered again is made anew).
    private let closed: () -> Void
    /// The compositor has configured it (its buffer is attached from then on).
    private var configured = false

    /// `size`: the panel's mode (its own pixels); `transform`, `scale`: the output's now.
    init?(target: SuggestionTarget, panel: String, output: OpaquePointer, size: (width: Int, height: Int), transform: Int32,
          scale: Int32, parts: ShieldParts, seat: OpaquePointer?, capabilities: UInt32,
          tapped: @escaping () -> Void, hover: @escaping (Bool) -> Void, closed: @escaping () -> Void) {
        guard let compositor = parts.compositor, let layerShell = parts.layerShell, let shm = parts.shm, scale >= 1
        else { return nil }
        self.target = target
        self.panel = panel
        self.box = target.box(width: size.width, height: size.height)
        self.scale = scale
        self.transform = transform
        self.tapped = tapped
        self.hover = hover
        self.closed = closed
        guard box.width % Int(scale) == 0, let surface = wl_compositor_create_surface(compositor) else { return nil }
        self.surface = surface
        guard let layer = zwlr_layer_shell_v1_get_layer_surface(layerShell, surface, output, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue,
                                                                  "wlr-orient-suggestion") else {
            destroy()
            return nil
        }
        self.layer = layer
        zwlr_layer_surface_v1_add_listener(layer, Self.layerListener, callbackContext)
        let showing = (OutputTransform(rawValue: transform) ?? .normal).orientation
        let corner = target.corner(showing: showing)
        let side = UInt32(box.width) / UInt32(scale), margin = Int32(box.width / 3) / scale
        let vertical = corner.isBottom ? ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue : ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue
        let horizontal = corner.isRight ? ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue : ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue
        zwlr_layer_surface_v1_set_anchor(layer, vertical | horizontal)
        zwlr_layer_surface_v1_set_size(layer, side, side)
        zwlr_layer_surface_v1_set_margin(layer, margin, margin, margin, margin)
        zwlr_layer_surface_v1_set_exclusive_zone(layer, -1)
        zwlr_layer_surface_v1_set_keyboard_interactivity(layer, 0)
        guard makeBuffer(shm: shm) else {
            destroy()
            return nil
        }
        listen(seat: seat, capabilities: capabilities)
        wl_surface_commit(surface)
    }

    /// The icon in the panel's own pixels, in shared memory.
    private func makeBuffer(shm: OpaquePointer) -> Bool {
        let side = box.width, size = side * side * 4
        let fd = glue_shm_file(size)
        guard fd >= 0 else { return false }
        let file = FileDescriptor(rawValue: fd)
        defer { file.close() }
        guard case .success(let mapped) = SharedMemory.map(file, size: size), let pool = wl_shm_create_pool(shm, fd, Int32(size))
        else { return false }
        shared = mapped
        let pixels = SuggestionIcon.pixels(side: side, counterClockwiseQuarterTurns: target.counterClockwiseQuarterTurns,
                                           hovered: target.hovered)
        pixels.withUnsafeBytes { mapped.base.copyMemory(from: $0.baseAddress!, byteCount: size) }
        buffer = wl_shm_pool_create_buffer(pool, 0, Int32(side), Int32(side), Int32(side * 4), WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        return buffer != nil
    }

    private func listen(seat: OpaquePointer?, capabilities: UInt32) {
        guard let seat else { return }
        if capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0, let touch = wl_seat_get_touch(seat) {
            self.touch = touch
            wl_touch_add_listener(touch, Self.touchListener, callbackContext)
        }
        if capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0, let pointer = wl_seat_get_pointer(seat) {
            self.pointer = pointer
            wl_pointer_add_listener(pointer, Self.pointerListener, callbackContext)
        }
    }

    private func configured(serial: UInt32) {
        guard let layer, let surface, let buffer else { return }
        zwlr_layer_surface_v1_ack_configure(layer, serial)
        configured = true
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_set_buffer_transform(surface, transform)
        wl_surface_set_buffer_scale(surface, scale)
        wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
        if callback == nil, let frame = wl_surface_frame(surface) {
            callback = frame
            wl_callback_add_listener(frame, Self.frameListener, callbackContext)
        }
        wl_surface_commit(surface)
    }

    /// Draws `new` in place of the target it shows, where only its look differs (a pointer came to
    /// rest on it or left it): the surface stays, and with it the pointer's focus on it, so the
    /// click that follows lands. False when it cannot (then it is made anew).
    func redraw(_ new: SuggestionTarget, shm: OpaquePointer) -> Bool {
        guard new.differsOnlyInLook(from: target), let surface else { return false }
        let (oldBuffer, oldShared) = (buffer, shared)
        target = new
        guard makeBuffer(shm: shm) else {
            (buffer, shared) = (oldBuffer, oldShared)
            return false
        }
        if configured {
            wl_surface_attach(surface, buffer, 0, 0)
            wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
            wl_surface_commit(surface)
        }
        // The compositor keeps what it was given of the old one.
        if let oldBuffer { wl_buffer_destroy(oldBuffer) }
        return true
    }

    private func presented() {
        if let callback { wl_callback_destroy(callback) }
        callback = nil
        Events.emit(.suggestionShown(panel: panel, target.orientation, box: [box.x, box.y, box.width, box.height],
                                     askedAt: OrientEvent.microseconds(seconds: askedAt),
                                     drawnAt: OrientEvent.microseconds(seconds: monotonicSeconds())))
    }

    /// A contact on the surface: a tap that begins and ends on it is reported.
    private func contact(_ source: Contacts.Source, id: Int32, _ phase: Contacts.Phase, onTarget: Bool?) {
        if contacts.contact(source, id: id, phase, onTarget: onTarget).contains(.tapped) { tapped() }
    }

    private func inside(_ x: wl_fixed_t, _ y: wl_fixed_t) -> Bool {
        let side = Double(box.width) / Double(scale)
        let (px, py) = (wl_fixed_to_double(x), wl_fixed_to_double(y))
        return px >= 0 && py >= 0 && px < side && py < side
    }

    private func hovered(_ on: Bool) {
        guard hovered != on else { return }
        hovered = on
        hover(on)
    }

    func destroy() {
        if let callback { wl_callback_destroy(callback) }
        if let touch { wl_touch_destroy(touch) }
        if let pointer { wl_pointer_destroy(pointer) }
        if let layer { zwlr_layer_surface_v1_destroy(layer) }
        if let surface { wl_surface_destroy(surface) }
        if let buffer { wl_buffer_destroy(buffer) }
        (callback, touch, pointer, layer, surface, buffer, shared) = (nil, nil, nil, nil, nil, nil, nil)
        Events.emit(.suggestionHidden(panel: panel, at: OrientEvent.microseconds(seconds: monotonicSeconds())))
    }

    // MARK: listeners

    nonisolated(unsafe) private static let layerListener = permanentListener(zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, _, _ in owner(data)?.configured(serial: serial) },
        closed: { data, _ in
            guard let self_ = owner(data) else { return }
            self_.destroy()
            self_.closed()
        }))

    nonisolated(unsafe) private static let frameListener = permanentListener(wl_callback_listener(done: { data, _, _ in owner(data)?.presented() }))

    /// Only the events of version 1 (the seat is bound at 1), set one by one: later libwayland
    /// releases add members to these structs.
    nonisolated(unsafe) private static let touchListener: UnsafeMutablePointer<wl_touch_listener> = {
        var listener = wl_touch_listener()
        listener.down = { data, _, _, _, surface, id, _, _ in
            guard let self_ = owner(data), surface == self_.surface else { return }
            self_.contact(.finger, id: id, .down, onTarget: true)
        }
        listener.up = { data, _, _, _, id in owner(data)?.contact(.finger, id: id, .up, onTarget: nil) }
        listener.motion = { data, _, _, id, x, y in
            guard let self_ = owner(data) else { return }
            self_.contact(.finger, id: id, .motion, onTarget: self_.inside(x, y))
        }
        listener.frame = { _, _ in }
        listener.cancel = { data, _ in owner(data)?.contacts = Contacts() }
        return permanentListener(listener)
    }()

    nonisolated(unsafe) private static let pointerListener: UnsafeMutablePointer<wl_pointer_listener> = {
        var listener = wl_pointer_listener()
        listener.enter = { data, _, _, surface, _, _ in
            guard let self_ = owner(data) else { return }
            self_.hovered(surface == self_.surface)
        }
        listener.leave = { data, _, _, _ in owner(data)?.hovered(false) }
        listener.motion = { _, _, _, _, _ in }
        listener.button = { data, _, _, _, button, state in
            guard let self_ = owner(data), self_.hovered else { return }
            self_.contact(.button, id: Int32(truncatingIfNeeded: button),
                          state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue ? .down : .up, onTarget: true)
        }
        listener.axis = { _, _, _, _, _ in }
        return permanentListener(listener)
    }()
}
