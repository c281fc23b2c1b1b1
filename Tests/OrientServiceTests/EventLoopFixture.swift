import CEventLoop
import Glibc
import OrientService
import OrientSystem
import Testing

/// The suites of this target, one test at a time: they swap the global `Log.write`, and start
/// child processes that must not inherit each other's files.
@Suite(.serialized) enum OnTheEventLoop {}

/// A real libwayland event loop, as the plugin and the daemon run theirs, dispatched by the test
/// until what it waits for has happened (or a deadline passed: then the test fails).
final class EventLoop {
    let loop: OpaquePointer

    init() throws {
        loop = try #require(wl_event_loop_create())
    }

    deinit { wl_event_loop_destroy(loop) }

    /// Dispatches until `done()` is true; false if it was not within `seconds`.
    @discardableResult
    func dispatch(until done: () -> Bool, within seconds: Double = 10) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while !done() {
            guard monotonicSeconds() < deadline else { return false }
            _ = wl_event_loop_dispatch(loop, 20)
        }
        return true
    }

    /// Dispatches everything that comes for `seconds` (for checking that something does not happen).
    func dispatch(for seconds: Double) {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline { _ = wl_event_loop_dispatch(loop, 20) }
    }
}

/// Removes a test's scratch directory (TestSupport's `makeTemporaryDirectory`) and what is in
/// it; a symbolic link is removed, not followed.
func removeTree(_ path: String) {
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
        directoryEntries(path).forEach { removeTree(path + "/" + $0) }
        rmdir(path)
    } else {
        unlink(path)
    }
}

func writeFile(_ path: String, _ text: String, mode: mode_t = 0o644) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    try #require(fd >= 0)
    defer { close(fd) }
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
}

func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { break }
        bytes += chunk[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The log lines written while a test runs, with the thread that wrote each (only the suites of
/// `OnTheEventLoop`, which run one test at a time, replace the global `Log.write`).
final class LogCapture {
    private(set) var lines: [String] = []
    /// Whether each line was written on the thread that made the capture (the loop's).
    private(set) var onThisThread: [Bool] = []
    private let saved = Log.write
    private let thread = pthread_self()

    init() {
        Log.write = { [weak self] _, message in
            guard let self else { return }
            lines.append(message)
            onThisThread.append(pthread_equal(pthread_self(), thread) != 0)
        }
    }

    deinit { Log.write = saved }
}

/// A client of the control socket, non-blocking, read from between dispatches of the loop.
final class SocketClient {
    let fd: Int32
    private var received: [UInt8] = []
    private(set) var ended = false

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        let connected = UnixSocketAddress(path)?.connect(fd) == true
        try #require(connected, "connect: \(String(cString: strerror(errno)))")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count)
    }

    /// Takes what has arrived, without waiting.
    private func receive() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !ended {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received += chunk[..<n]; continue }
            if n == 0 || (errno != EAGAIN && errno != EINTR) { ended = true }
            return
        }
    }

    /// The complete lines received so far (taken: the next call returns newer ones).
    func lines() -> [String] {
        receive()
        guard let last = received.lastIndex(of: 10) else { return [] }
        let text = String(decoding: received[...last], as: UTF8.self)
        received.removeSubrange(...last)
        return text.split(separator: "\n").map(String.init)
    }

    /// Whether the server closed the connection (after what it sent was read).
    var closedByServer: Bool {
        receive()
        received.removeAll()
        return ended
    }
}
