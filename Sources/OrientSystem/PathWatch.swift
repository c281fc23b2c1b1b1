import Glibc

/// Watches one file by its path, whatever happens to the directories on the way to it: the file
/// written, replaced, created or removed, and its directory (or any directory above it) removed,
/// moved away or made again. Editors replace files, so the file itself cannot be watched; and a
/// watch on its directory alone dies with the directory (and follows it where it is moved). So
/// each directory from the root down to the file's is watched, as far as they exist; when one
/// appears, goes or is replaced, the watches are made again from the path.
public final class PathWatch {
    public enum Change: Equatable {
        case unchanged
        /// The file may have changed (written, replaced, created, removed).
        case file
        /// The file's directory went (removed, moved away): nothing to read until it comes back.
        case directoryGone
        /// The file's directory is there again (made anew, or moved back): the file may be too.
        case directoryBack
    }

    /// The inotify descriptor, for the caller's event loop (non-blocking, close-on-exec).
    public let fd: Int32
    private let name: [UInt8]
    /// "/", "/home", "/home/u", … down to the file's directory.
    private let directories: [String]
    /// The watch on each of `directories` that exists now, by watch descriptor.
    private var watched: [Int32: Int] = [:]
    /// Whether the file's own directory is watched (it exists).
    public private(set) var directoryExists = false
    private let events = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

    /// nil when inotify cannot be had (its per-user limit reached) or the path is not absolute.
    public init?(file: String) {
        guard file.hasPrefix("/"), let slash = file.lastIndex(of: "/"), file.index(after: slash) < file.endIndex else { return nil }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        name = Array(file[file.index(after: slash)...].utf8)
        var chain = ["/"]
        for part in file[..<slash].split(separator: "/") {
            chain.append((chain.count == 1 ? "" : chain[chain.count - 1]) + "/" + part)
        }
        directories = chain
        arm()
    }

    deinit {
        close(fd)
        events.deallocate()
    }

    /// Reads every queued event; says what changed for the file.
    public func drain() -> Change {
        var fileChanged = false
        var rearm = false
        var vector = iovec(iov_base: events.baseAddress, iov_len: events.count)
        while true {
            let n = readv(fd, &vector, 1)
            guard n > 0 else { break }   // EAGAIN: no more
            var offset = 0
            while offset + 16 <= n {
                let wd = events.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                guard offset + 16 + length <= n else { break }
                let entry = UnsafeRawBufferPointer(rebasing: events[(offset + 16)..<(offset + 16 + length)])
                offset += 16 + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    rearm = true   // events were lost: anything may have happened
                    fileChanged = true
                    continue
                }
                guard let level = watched[wd] else { continue }   // a watch already replaced
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    rearm = true
                } else if level == directories.count - 1 {
                    if Self.names(entry, name) { fileChanged = true }
                } else if Self.names(entry, Array(Self.lastComponent(directories[level + 1]).utf8)) {
                    rearm = true   // the next directory down appeared, went or was replaced
                }
            }
        }
        guard rearm else { return fileChanged ? .file : .unchanged }
        let before = directoryExists
        let leafBefore = leafIdentity
        arm()
        switch (before, directoryExists) {
        case (true, false): return .directoryGone
        case (false, true): return .directoryBack
        case (true, true) where leafIdentity != leafBefore: return .directoryBack   // replaced
        default: return fileChanged ? .file : .unchanged
        }
    }

    /// The device and inode of the file's directory while it is watched (a directory made anew
    /// in the place of one is another inode).
    private struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64
    }
    private var leafIdentity: Identity?

    /// Watches every directory of the path that exists, from the root down, again.
    private func arm() {
        for wd in watched.keys { inotify_rm_watch(fd, wd) }
        watched = [:]
        directoryExists = false
        leafIdentity = nil
        let above = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        let leaf = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        for (level, directory) in directories.enumerated() {
            let isLeaf = level == directories.count - 1
            let wd = inotify_add_watch(fd, directory, isLeaf ? leaf : above)
            guard wd >= 0 else { return }   // missing (or not a directory): the watch above sees it come
            watched[wd] = level
            if isLeaf {
                directoryExists = true
                var info = stat()
                if stat(directory, &info) == 0 { leafIdentity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
            }
        }
    }

    private static func lastComponent(_ path: String) -> Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? Substring(path)
    }

    /// Whether a NUL-padded name from an inotify event is `name`.
    private static func names(_ padded: UnsafeRawBufferPointer, _ name: [UInt8]) -> Bool {
        let end = padded.firstIndex(of: 0) ?? padded.count
        return UnsafeRawBufferPointer(rebasing: padded[..<end]).elementsEqual(name)
    }
}
