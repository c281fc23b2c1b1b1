import Glibc

/// The address of a Unix socket at a path, as bind(2) and connect(2) take it: built once, with
/// the path's length checked once (108 bytes with its NUL).
public struct UnixSocketAddress {
    private var address = sockaddr_un()

    /// nil if the path does not fit.
    public init?(_ path: String) {
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// bind(2) of `fd` to it; false with errno set.
    public func bind(_ fd: Int32) -> Bool { call { Glibc.bind(fd, $0, $1) == 0 } }

    /// connect(2) of `fd` to it; false with errno set (EINPROGRESS/EAGAIN on a non-blocking one).
    public func connect(_ fd: Int32) -> Bool { call { Glibc.connect(fd, $0, $1) == 0 } }

    private func call(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Bool) -> Bool {
        var copy = address
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
