import CWlrGlue
import Glibc

/// Notices when the config file is written, replaced, created or removed: an inotify watch on its
/// directory (editors replace files, so the file itself cannot be watched), on the event loop.
final class ConfigWatcher {
    private var fd: Int32 = -1
    private var source: OpaquePointer?
    private let name: String
    private let changed: () -> Void

    /// nil when the directory does not exist or inotify cannot be had.
    init?(file: String, loop: OpaquePointer?, changed: @escaping () -> Void) {
        guard let slash = file.lastIndex(of: "/") else { return nil }
        let directory = String(file[..<slash])
        name = String(file[file.index(after: slash)...])
        self.changed = changed
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(fd, directory.isEmpty ? "/" : directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        source = glue_add_fd(loop, fd, Unmanaged.passUnretained(self).toOpaque()) { _, _, context in
            guard let context else { return 0 }
            Unmanaged<ConfigWatcher>.fromOpaque(context).takeUnretainedValue().readEvents()
            return 0
        }
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ours = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len) }
                let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == name { ours = true }
                offset += header + length
            }
        }
        if ours { changed() }
    }

    func stop() {
        if let source { wl_event_source_remove(source) }
        source = nil
        if fd >= 0 { close(fd) }
        fd = -1
    }
}
