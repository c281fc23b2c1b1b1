import CEvdev
import CEventLoop
import CUdev
import OrientCore
import OrientService
import OrientSystem

/// The tablet-mode switches among the input devices udev knows (ID_INPUT_SWITCH), read only on
/// the daemon's loop: what the compositor's libinput sees, seen beside it. Each change goes to
/// `changed`. A switch that cannot be opened (the user is not in the `input` group) is said once.
final class TabletSwitches: CallbackOwner {
    private struct Switch {
        let path: String
        let fd: FileDescriptor
        var source: LoopSource?
    }

    private var switches: [Switch] = []
    private let changed: (Bool) -> Void

    /// Opens every tablet-mode switch there is now; its state, when the device tells it, is
    /// reported at once.
    init(loop: OpaquePointer?, changed: @escaping (Bool) -> Void) {
        self.changed = changed
        for path in Self.switchNodes() {
            let file: FileDescriptor
            switch FileDescriptor.openForReading(path, nonBlocking: true) {
            case .success(let opened): file = opened
            case .failure(let error):
                Log.error("cannot read the switch \(path) (\(error.reason)): tablet mode is not followed; being in the `input` group allows it")
                continue
            }
            guard glue_evdev_has_tablet_mode(file.rawValue) else {
                file.close()
                continue
            }
            var entry = Switch(path: path, fd: file)
            entry.source = LoopSource.readable(file.rawValue, on: loop) { [unowned self] _ in readable(file) }
            switches.append(entry)
            Log.info("tablet-mode switch: \(path)")
            Events.emit(.tabletSwitch(path: path))
            let state = glue_evdev_tablet_mode(file.rawValue)
            if state >= 0 { changed(state == 1) }
        }
    }

    func remove() {
        for s in switches {
            s.source?.remove()
            s.fd.close()
        }
        switches = []
    }

    private func readable(_ fd: FileDescriptor) {
        let result = glue_evdev_read_tablet_mode(fd.rawValue, callbackContext) { context, on in
            TabletSwitches.owner(context)?.changed(on)
        }
        guard result < 0, let i = switches.firstIndex(where: { $0.fd == fd }) else { return }
        let why = SystemError.last("read").reason
        let gone = switches.remove(at: i)
        Log.info("tablet-mode switch \(gone.path) went away (\(why))")
        gone.source?.remove()
        gone.fd.close()
    }

    /// The device nodes of the input devices udev marks as switches.
    private static func switchNodes() -> [String] {
        guard let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_scan_devices(enumerate)
        var nodes: [String] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let e = entry {
            if let syspath = udev_list_entry_get_name(e), let device = udev_device_new_from_syspath(udev, syspath) {
                // The property is checked here rather than matched by the enumeration: a property
                // match needs udev's database, which a test's umockdev does not fill.
                if let node = udev_device_get_devnode(device), let flag = udev_device_get_property_value(device, "ID_INPUT_SWITCH"),
                   String(cString: flag) == "1" {
                    let path = String(cString: node)
                    if path.contains("/event") { nodes.append(path) }
                }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(e)
        }
        return nodes.sorted()
    }
}
