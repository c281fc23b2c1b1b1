import Foundation
import OrientSystem
import Testing
import TestSupport

/// The system layer against the real kernel: processes, pipes, Unix sockets, inotify and files,
/// each with what a caller relies on when something goes wrong. (`ForkedTrial` is tested through
/// the parser shield, ParserShieldTests: a fork here would hold every other suite's descriptors.)
@Suite struct ChildProcessTests {
    /// Everything a child writes, until it closes its output.
    func output(of child: ChildProcess) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while case .success(let n) = buffer.withUnsafeMutableBytes({ child.output.read(into: $0) }), n > 0 {
            bytes += buffer[..<n]
        }
        child.output.close()
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aChildsOutputIsReadAndItsExitCollected() throws {
        let child = try ChildProcess.start(["sh", "-c", "echo hello; exit 3"]).get()
        #expect(output(of: child) == "hello\n")
        let exit = ChildProcess.reap(child.pid, until: monotonicSeconds() + 10)
        #expect(exit == .exited(status: 3 << 8))
        #expect(!exit.succeeded)
    }

    @Test func aChildGetsNoneOfTheCallersDescriptors() throws {
        // A pipe the caller holds open without close-on-exec (as a compositor may hold its DRM
        // fd) is not the child's: find lists what its own descriptors are, by their link.
        var held: [Int32] = [-1, -1]
        #expect(pipe(&held) == 0)
        defer { held.forEach { _ = close($0) } }
        var info = stat()
        #expect(fstat(held[1], &info) == 0)
        let child = try ChildProcess.start(["find", "/proc/self/fd", "-mindepth", "1", "-printf", "%l\\n"]).get()
        let links = output(of: child).split(separator: "\n").map(String.init)
        _ = ChildProcess.reap(child.pid, until: monotonicSeconds() + 10)
        #expect(links.contains("/dev/null"), "\(links)")   // its input
        #expect(!links.contains("pipe:[\(info.st_ino)]"), "\(links)")
    }

    @Test func aChildThatStaysIsNotWaitedForPastTheDeadline() throws {
        let child = try ChildProcess.start(["sleep", "30"]).get()
        defer { child.output.close() }
        let started = monotonicSeconds()
        #expect(ChildProcess.reap(child.pid, until: started + 0.1) == .running)
        #expect(monotonicSeconds() - started < 5)
        ChildProcess.kill(child.pid)
        #expect(ChildProcess.reap(child.pid) == .reapedElsewhere)   // collected by kill already
    }

    @Test func aProgramThatIsNotThereIsATypedError() {
        switch ChildProcess.start(["/nonexistent/wlr-orient-test-program"]) {
        case .success(let child):
            Issue.record("started \(child.pid)")
        case .failure(let error):
            #expect(error.noSuchFile, "\(error)")
        }
        switch ChildProcess.start(["wlr-orient-test-program-on-no-path"]) {
        case .success(let child):
            Issue.record("started \(child.pid)")
        case .failure(let error):
            #expect(error.noSuchFile, "\(error)")
        }
    }

    @Test func aChildStartsWithEverySignalAtItsDefaultAndUnblocked() throws {
        // The caller ignores SIGPIPE and blocks SIGTERM, as a compositor's loop may.
        let ignored = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, ignored) }
        var term = sigset_t(), before = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &term, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        let child = try ChildProcess.start(["sh", "-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"]).get()
        let lines = output(of: child).split(separator: "\n").map(String.init)
        _ = ChildProcess.reap(child.pid, until: monotonicSeconds() + 10)
        #expect(lines.contains("SigBlk:\t0000000000000000"), "\(lines)")
        // The shell itself ignores nothing either (it would show SIGPIPE's bit, 0x1000).
        #expect(lines.contains { $0.hasPrefix("SigIgn:") && !$0.hasSuffix("1000") }, "\(lines)")
    }

    @Test func aChildEndsWithTheThreadThatStartedIt() throws {
        // A helper must not outlive its compositor, even one killed with SIGKILL: the kernel
        // sends the child its signal when the starting thread ends (here a thread of our own).
        let started = Monitor()
        nonisolated(unsafe) var pid: ProcessID = 0
        let thread = try #require(WorkerThread.start {
            let child = try? ChildProcess.start(["sleep", "30"]).get()
            child?.output.close()
            started.locked { pid = child?.pid ?? -1 }
        })
        thread.join()
        let child = started.locked { pid }
        #expect(child > 0)
        guard child > 0 else { return }
        let exit = ChildProcess.reap(child, until: monotonicSeconds() + 10)
        #expect(exit == .exited(status: SIGKILL), "\(exit)")
    }
}

@Suite struct UnixSocketTests {
    @Test func aLiveServerIsFoundAndNotReplaced() throws {
        let path = try makeTemporaryDirectory() + "/control.sock"
        #expect(!UnixSocket.isServed(path))
        let listener = try UnixSocket.listen(at: path, backlog: 4).get()
        defer { listener.close() }
        // The first connection waiting is the client's (the probes below come after it).
        let client = try UnixSocket.connect(to: path).get()
        let accepted = try UnixSocket.accept(on: listener).get()
        #expect(try UnixSocket.peerUser(of: accepted).get() == UnixSocket.ownUser)
        var byte: UInt8 = 7
        #expect(try withUnsafeBytes(of: &byte) { try client.write($0).get() } == 1)
        #expect(try accepted.waitReadable(milliseconds: 5000).get())
        var received: UInt8 = 0
        #expect(try withUnsafeMutableBytes(of: &received) { try accepted.read(into: $0).get() } == 1 && received == 7)
        client.close()
        accepted.close()
        #expect(UnixSocket.isServed(path))
        // A second server at the same path is refused while the first answers.
        guard case .failure(.served) = UnixSocket.listen(at: path, backlog: 4) else {
            Issue.record("a second server took a live server's socket")
            return
        }
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        // What a server that crashed leaves: a socket file nobody answers on. Made by binding
        // without listening (closing a listener would not do here: a test that forks at the
        // same moment holds a copy of it).
        let path = try makeTemporaryDirectory() + "/control.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0 && UnixSocketAddress(path)?.bind(fd) == true)
        close(fd)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!UnixSocket.isServed(path))
        let next = try UnixSocket.listen(at: path, backlog: 4).get()
        #expect(UnixSocket.isServed(path))
        next.close()
        UnixSocket.remove(path)
    }

    @Test func aPathTooLongAndAFileInTheWayAreSaidSo() throws {
        let long = "/tmp/" + String(repeating: "x", count: 120)
        #expect(UnixSocketAddress(long) == nil)
        guard case .failure(.pathTooLong) = UnixSocket.listen(at: long, backlog: 1) else {
            Issue.record("a path longer than sun_path was taken")
            return
        }
        #expect(throws: SystemError.self) { try UnixSocket.connect(to: long).get() }
        let file = try makeTemporaryDirectory() + "/not-a-socket"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        guard case .failure(.notASocket) = UnixSocket.listen(at: file, backlog: 1) else {
            Issue.record("a regular file in the way was replaced")
            return
        }
        #expect(FileManager.default.fileExists(atPath: file))
    }

    @Test func nobodyThereIsARefusal() throws {
        let path = try makeTemporaryDirectory() + "/none.sock"
        switch UnixSocket.connect(to: path) {
        case .success: Issue.record("connected to nothing")
        case .failure(let error): #expect(error.noSuchFile || error.refused, "\(error)")
        }
    }
}

@Suite struct WatchTests {
    @Test func aDirectoryWatchNamesWhichEntryChanged() throws {
        let directory = try makeTemporaryDirectory()
        let watch = try #require(DirectoryWatch(directory: directory, names: ["a", "b"]))
        #expect(watch.drain() == .unchanged)
        try "1".write(toFile: directory + "/b", atomically: false, encoding: .utf8)
        try "1".write(toFile: directory + "/other", atomically: false, encoding: .utf8)
        #expect(try FileDescriptor(rawValue: watch.fd).waitReadable(milliseconds: 5000).get())
        #expect(watch.drain() == .named(0b10))
        // "b" first: the wait may end at its event, before the other one's.
        try FileManager.default.removeItem(atPath: directory + "/b")
        try FileManager.default.removeItem(atPath: directory + "/other")
        #expect(try FileDescriptor(rawValue: watch.fd).waitReadable(milliseconds: 5000).get())
        #expect(watch.drain() == .named(0b10))
        #expect(rmdir(directory) == 0)
        #expect(try FileDescriptor(rawValue: watch.fd).waitReadable(milliseconds: 5000).get())
        #expect(watch.drain() == .directoryGone)
    }

    @Test func aMissingDirectoryCannotBeWatched() {
        #expect(DirectoryWatch(directory: "/nonexistent/wlr-orient-test", names: ["a"]) == nil)
    }
}

@Suite struct FileTests {
    @Test func anAtomicWriteReplacesTheFileWhole() throws {
        let directory = try makeTemporaryDirectory() + "/state/deeper"
        try makeDirectories(directory).get()
        let path = directory + "/state.toml"
        try writeFileAtomically(path, Array("one".utf8)).get()
        try writeFileAtomically(path, Array("two".utf8)).get()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        // Nothing of the writer's temporary files is left beside it.
        #expect(directoryEntries(directory) == ["state.toml"])
    }

    /// Two sessions and the CLI save state.toml at once: each writer has a temporary file of its
    /// own, so no reader ever sees a torn file and no save fails (with one shared temporary name,
    /// 7,203 of 498,738 reads saw one writer's text over another's, and saves failed with ENOENT).
    @Test func writersAtOnceNeverTearTheFileNorFail() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory + "/state.toml"
        let texts = (0..<3).map { "lock = \"\(["portrait", "landscape", "left-up"][$0])\"\n" + String(repeating: "# \($0)\n", count: 200) }
        try writeFileAtomically(path, Array(texts[0].utf8)).get()
        final class Tally: @unchecked Sendable {
            let monitor = Monitor()
            var failures = 0, finished = 0
        }
        let tally = Tally()
        let writers = (0..<3).compactMap { n in
            WorkerThread.start {
                for _ in 0..<300 {
                    if case .failure = writeFileAtomically(path, Array(texts[n].utf8)) { tally.monitor.locked { tally.failures += 1 } }
                }
                tally.monitor.locked { tally.finished += 1 }
            }
        }
        #expect(writers.count == 3)
        var torn = 0, reads = 0
        while tally.monitor.locked({ tally.finished < writers.count }) {
            let text = readSmallFile(path, limit: 1 << 16) ?? ""
            reads += 1
            if !texts.contains(text) { torn += 1 }
        }
        writers.forEach { $0.join() }
        #expect(reads > 0 && torn == 0, "\(torn) of \(reads) reads saw a torn file")
        #expect(tally.failures == 0)
        #expect(directoryEntries(directory) == ["state.toml"], "every temporary file went")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644)
    }

    @Test func aFileThatCannotBeWrittenIsATypedError() throws {
        switch writeFileAtomically("/nonexistent/wlr-orient-test/state.toml", [1]) {
        case .success: Issue.record("wrote into a missing directory")
        case .failure(let error): #expect(error.noSuchFile, "\(error)")
        }
    }
}

@Suite struct LineBufferTests {
    @Test func wholeLinesComeOutAndAPartOneWaitsForItsEnd() {
        var lines = LineBuffer()
        lines.append(ArraySlice("one\ntw".utf8))
        #expect(lines.nextLine() == "one")
        #expect(lines.nextLine() == nil)
        #expect(lines.waiting == 2)
        lines.append(ArraySlice("o\n\nthree".utf8))
        #expect(lines.nextLine() == "two")
        #expect(lines.nextLine() == "")
        #expect(lines.nextLine() == nil)
        #expect(lines.waiting == 5)
        lines.removeAll()
        #expect(lines.waiting == 0 && lines.nextLine() == nil)
    }
}

/// What the CLI prints its numbers with, now that Foundation's String(format:) is not linked: the
/// C library's conversion, so the same text as before, ties and negative zero included.
@Suite struct FormatDecimalTests {
    @Test(arguments: [0.0, -0.0, -0.04, 0.05, 0.15, 0.35, 1.45, 2.5, 1.5, -9.81, 9.80665, 123.456, -1234.5678,
                      0.045, 99.999, 1e6 + 0.3, 1e300, -.infinity, .nan])
    func asPrintfPrintsIt(_ v: Double) {
        for (decimals, width) in [(0, 4), (1, 5), (2, 7), (3, 8), (4, 0)] {
            #expect(formatDecimal(v, decimals: decimals, width: width) == String(format: "%\(width).\(decimals)f", v),
                    "\(v) with \(decimals) decimals in \(width)")
        }
    }
}

/// The `.desktop` files under a directory, as the Desktop Entry spec finds them: subdirectories
/// walked, a link to a file taken, a link to a directory not followed (a link back up would
/// otherwise walk the tree again and again).
@Suite struct FilesBelowTests {
    @Test func filesAndLinksToFilesButNoLinkedDirectories() throws {
        let root = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/sub/deeper", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/a.desktop", contents: Data())
        FileManager.default.createFile(atPath: root + "/sub/deeper/b.desktop", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: root + "/c.desktop", withDestinationPath: root + "/a.desktop")
        try FileManager.default.createSymbolicLink(atPath: root + "/sub/up", withDestinationPath: root)
        #expect(filesBelow(root) == ["a.desktop", "c.desktop", "sub/deeper/b.desktop"])
        #expect(filesBelow(root + "/missing") == [])
    }
}

/// What the edges were given to call instead of the C library: reading files and device nodes,
/// what stat says of them, and shared memory.
@Suite struct ReadingAndMappingTests {
    @Test func aFileIsReadFromAnyOffsetAndItsStatusIsTyped() throws {
        let path = try makeTemporaryDirectory() + "/attribute"
        try "12345\n".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try FileDescriptor.openForReading(path).get()
        defer { file.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        for _ in 0..<2 {   // read again from the start, as a sysfs attribute is
            let n = try buffer.withUnsafeMutableBytes { try file.read(into: $0, atOffset: 0).get() }
            #expect(String(decoding: buffer[..<n], as: UTF8.self) == "12345\n")
        }
        let status = try file.status().get()
        #expect(status.kind == .regular)
        #expect(status.size == 6)
        #expect(status.linkCount == 1)
        removeFile(path)
        #expect(try file.status().get().linkCount == 0)   // removed while open
    }

    @Test func whatCannotBeOpenedSaysWhy() throws {
        let directory = try makeTemporaryDirectory()
        switch FileDescriptor.openForReading(directory + "/none") {
        case .success(let file): file.close(); Issue.record("opened")
        case .failure(let error): #expect(error.isNotFound, "\(error)")
        }
        let opened = try FileDescriptor.openForReading(directory, nonBlocking: true).get()
        defer { opened.close() }
        #expect(try opened.status().get().kind == .directory)
    }

    @Test func sharedMemoryIsTheFilesBytes() throws {
        let path = try makeTemporaryDirectory() + "/pool"
        try [UInt8](repeating: 7, count: 8192).withUnsafeBytes { try writeFileAtomically(path, Array($0)).get() }
        let mapping: SharedMemory
        do {
            let file = FileDescriptor(rawValue: open(path, O_RDWR | O_CLOEXEC))   // as a wl_shm pool's is
            try #require(file.rawValue >= 0)
            defer { file.close() }
            mapping = try SharedMemory.map(file, size: 8192).get()
        }
        #expect(mapping.base.load(fromByteOffset: 4096, as: UInt8.self) == 7)
        mapping.base.storeBytes(of: 9, toByteOffset: 0, as: UInt8.self)
        #expect(readSmallFile(path, limit: 1)?.utf8.first == 9)   // shared: the file has it
    }
}
