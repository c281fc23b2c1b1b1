import Glibc

/// An inotify watch on one directory that says which of some names in it were created, removed
/// or replaced, and whether the directory itself went. Non-blocking; `fd` can go on a loop.
/// The sensor's held sysfs files use it (`PathWatch` follows a whole path).
public final class DirectoryWatch {
    public enum Change: Equatable {
        case unchanged
        /// Bit i: `names[i]` changed (all bits when the kernel's queue overflowed).
        case named(UInt64)
        case directoryGone
    }

    public let fd: Int32
    /// The names as the bytes inotify reports them in.
    private let nameBytes: [[UInt8]]
    private let events = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)

    /// The usual mask: an entry created, removed, or replaced by a rename; the directory going.
    public static let entriesChanged = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// nil when inotify cannot be had (its per-user limit reached) or the directory is missing.
    public init?(directory: String, names: [String], mask: UInt32 = DirectoryWatch.entriesChanged) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            Glibc.close(fd)
            return nil
        }
        self.fd = fd
        nameBytes = names.map { Array($0.utf8) }
    }

    deinit {
        Glibc.close(fd)
        events.deallocate()
    }

    /// Reads every queued event (struct inotify_event: wd, mask, cookie, len, then a NUL-padded
    /// name), keeping those about our names: a writer's temporary files are not.
    /// With readv(2) rather than read(2): umockdev's preload wraps read (it blocks signals around
    /// each call to look the fd up), which would triple the cost of this check under test.
    public func drain() -> Change {
        var changed: UInt64 = 0
        let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)
        var vector = iovec(iov_base: events.baseAddress, iov_len: events.count)
        while true {
            let n = readv(fd, &vector, 1)
            guard n > 0 else { return changed == 0 ? .unchanged : .named(changed) }  // EAGAIN: no more
            var offset = 0
            while offset + 16 <= n {
                let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                guard offset + 16 + length <= n else { break }
                if mask & gone != 0 { return .directoryGone }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = ~0  // events were lost: any name may have changed
                } else if let i = index(ofName: UnsafeRawBufferPointer(rebasing: events[(offset + 16)..<(offset + 16 + length)])) {
                    changed |= 1 << UInt64(min(i, 63))
                }
                offset += 16 + length
            }
        }
    }

    /// Which of the names a NUL-padded name from an inotify event is, if any.
    private func index(ofName padded: UnsafeRawBufferPointer) -> Int? {
        let end = padded.firstIndex(of: 0) ?? padded.count
        let name = UnsafeRawBufferPointer(rebasing: padded[..<end])
        return nameBytes.firstIndex { $0.elementsEqual(name) }
    }
}
