import CSystem
import Glibc

/// A descriptor the shell holds, with the calls it makes on one; each failure is a
/// `SystemError` with its errno. An interrupted call (EINTR) is made again here; a non-blocking
/// descriptor with nothing to give or take fails with EAGAIN, which `SystemError.wouldBlock`
/// names.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// Makes `path` an empty file for writing (truncating one that is there), mode 0644.
    public static func create(_ path: String) -> Result<FileDescriptor, SystemError> {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failure(SystemError(operation: "open \(path)", errno: errno)) }
        return .success(FileDescriptor(rawValue: fd))
    }

    /// Opens `path` (a file, a device node) to read it: closed on exec, never made the
    /// controlling terminal. `nonBlocking`: the open returns at once, even for a FIFO nobody
    /// writes to, and reads fail with EAGAIN (`SystemError.wouldBlock`) rather than wait.
    public static func openForReading(_ path: String, nonBlocking: Bool = false) -> Result<FileDescriptor, SystemError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (nonBlocking ? O_NONBLOCK : 0))
        guard fd >= 0 else { return .failure(SystemError(operation: "open \(path)", errno: errno)) }
        return .success(FileDescriptor(rawValue: fd))
    }

    /// A pipe whose ends no program started meanwhile can inherit (close-on-exec from the start).
    public static func pipe() -> Result<(read: FileDescriptor, write: FileDescriptor), SystemError> {
        var fds: [Int32] = [-1, -1]
        guard glue_pipe_cloexec(&fds) == 0 else { return .failure(SystemError(operation: "pipe", errno: errno)) }
        return .success((FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1])))
    }

    /// Reads what is there into `buffer`: how many bytes (0 at the end).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError> {
        Self.retrying("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads from `offset` into `buffer` without moving the file's position (pread(2): a sysfs
    /// attribute read again from its start): how many bytes.
    public func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) -> Result<Int, SystemError> {
        Self.retrying("pread") { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// What the kernel says of the file it is open on (fstat).
    public func status() -> Result<FileStatus, SystemError> {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { return .failure(SystemError(operation: "fstat", errno: errno)) }
        return .success(FileStatus(info))
    }

    /// Receives what a socket has (recv(2)): how many bytes (0 once the peer has gone).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError> {
        Self.retrying("recv") { recv(rawValue, buffer.baseAddress, buffer.count, 0) }
    }

    /// Writes what it can of `bytes` now: how many.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemError> {
        Self.retrying("write") { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Sends what it can of `bytes` on a socket now (without SIGPIPE, which would end the
    /// process, when the peer has gone): how many.
    public func send(_ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemError> {
        Self.retrying("send") { Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Writes all of `bytes` (a blocking descriptor).
    public func writeAll(_ bytes: [UInt8]) -> Result<Void, SystemError> {
        var done = 0
        while done < bytes.count {
            switch bytes[done...].withUnsafeBytes({ write($0) }) {
            case .success(let n) where n > 0: done += n
            case .success: return .failure(SystemError(operation: "write", errno: EIO))
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    /// Reads until the end (a blocking descriptor), at most `limit` bytes: what came.
    public func readToEnd(limit: Int = 1 << 20) -> Result<[UInt8], SystemError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            switch chunk.withUnsafeMutableBytes({ read(into: $0) }) {
            case .success(0): return .success(bytes)
            case .success(let n): bytes += chunk[..<min(n, limit - bytes.count)]
            case .failure(let error): return .failure(error)
            }
        }
        return .success(bytes)
    }

    /// Reads and writes on it no longer block (EAGAIN instead).
    public func setNonBlocking() -> Result<Void, SystemError> {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0 else {
            return .failure(SystemError(operation: "fcntl", errno: errno))
        }
        return .success(())
    }

    /// Waits until it can be read (or has ended), at most `milliseconds`: false if the time ran out.
    public func waitReadable(milliseconds: Int32) -> Result<Bool, SystemError> {
        var pfd = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return Self.retrying("poll") { Int(poll(&pfd, 1, milliseconds)) }.map { $0 > 0 }
    }

    /// Waits until one of `descriptors` can be read (or has ended), at most `milliseconds` (-1:
    /// without end); which of them can. A nil one is not watched.
    /// `untilSignal`: a signal handled meanwhile ends the wait too (none readable), so that a
    /// loop sees at once what its handler set; otherwise the wait goes on.
    public static func waitReadable(_ descriptors: [FileDescriptor?], milliseconds: Int32,
                                    untilSignal: Bool = false) -> Result<[Bool], SystemError> {
        var pfds = descriptors.map { pollfd(fd: $0?.rawValue ?? -1, events: Int16(POLLIN), revents: 0) }
        if untilSignal {
            guard poll(&pfds, nfds_t(pfds.count), milliseconds) >= 0 else {
                return errno == EINTR ? .success(pfds.map { _ in false }) : .failure(SystemError(operation: "poll", errno: errno))
            }
            return .success(pfds.map { $0.revents != 0 })
        }
        return Self.retrying("poll") { Int(poll(&pfds, nfds_t(pfds.count), milliseconds)) }.map { _ in pfds.map { $0.revents != 0 } }
    }

    /// Waits until what was written is on the disk (fsync).
    public func flushToDisk() -> Result<Void, SystemError> {
        Self.retrying("fsync") { Int(fsync(rawValue)) }.map { _ in }
    }

    public func close() {
        _ = Glibc.close(rawValue)
    }

    private static func retrying(_ operation: String, _ call: () -> Int) -> Result<Int, SystemError> {
        while true {
            let n = call()
            if n >= 0 { return .success(n) }
            if errno != EINTR { return .failure(SystemError(operation: operation, errno: errno)) }
        }
    }
}
