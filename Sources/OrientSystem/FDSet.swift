import CLinux
import Glibc

/// Several fds behind one (an epoll set), for hosts that watch one fd per source: it is
/// readable while any member is. Level-triggered: the owner drains every member it wakes for.
public final class FDSet {
    public let fd: Int32

    public init(_ members: [Int32]) throws {
        fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw SystemError(operation: "epoll_create1", errno: Glibc.errno) }
        for member in members {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = member
            if epoll_ctl(fd, EPOLL_CTL_ADD, member, &event) != 0 {
                let code = Glibc.errno
                Glibc.close(fd)
                throw SystemError(operation: "epoll_ctl", errno: code)
            }
        }
    }

    deinit { Glibc.close(fd) }
}
