import CEventLoop
import Glibc
import OrientSensor

/// Notices when the config file is written, replaced, created or removed: the sensor's
/// `DirectoryWatch` on its directory (editors replace files, so the file itself cannot be
/// watched), on the event loop.
public final class ConfigWatcher {
    private let watch: DirectoryWatch
    private var source: OpaquePointer?
    private let changed: () -> Void

    /// nil when the directory does not exist or inotify cannot be had.
    public init?(file: String, loop: OpaquePointer?, changed: @escaping () -> Void) {
        guard let slash = file.lastIndex(of: "/") else { return nil }
        let directory = slash == file.startIndex ? "/" : String(file[..<slash])
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        guard let watch = DirectoryWatch(directory: directory, names: [String(file[file.index(after: slash)...])], mask: mask) else {
            return nil
        }
        self.watch = watch
        self.changed = changed
        source = glue_add_fd(loop, watch.fd, Unmanaged.passUnretained(self).toOpaque()) { _, _, context in
            guard let context else { return 0 }
            let watcher = Unmanaged<ConfigWatcher>.fromOpaque(context).takeUnretainedValue()
            if watcher.watch.drain() != .unchanged { watcher.changed() }
            return 0
        }
    }

    public func stop() {
        if let source { wl_event_source_remove(source) }
        source = nil
    }
}
