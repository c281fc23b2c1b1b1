import Glibc
import OrientCore
import OrientJSON
import OrientSystem
@testable import OrientService
import TestSupport
import Testing

/// The control socket on a real event loop, with real Unix-socket clients: what a client is
/// answered, in what order a watcher hears things, and how a client that misbehaves is dropped
/// without the loop ever waiting for it (docs/control-socket.md).
/// A line the server sent, read as JSON (by the plugin's own reader).
func parsed(_ line: String?) -> JSON? {
    guard let line else { return nil }
    return Array(line.utf8).withUnsafeBytes { try? JSONReader.parse($0).get() }
}

func isReply(_ line: String?) -> Bool { parsed(line)?["ok"] == .bool(true) && parsed(line)?["status"] != nil }
func isError(_ line: String?) -> Bool { parsed(line)?["ok"] == .bool(false) && parsed(line)?["error"]?.string != nil }
func isEvent(_ line: String?) -> Bool { parsed(line)?["event"]?.string == "status" && parsed(line)?["status"] != nil }
func lock(in line: String?) -> String? { parsed(line)?["status"]?["lock"]?.string }

extension OnTheEventLoop {
    @Suite final class ControlServerTests {
        let loop: EventLoop
        let directory: String
        var controller = Controller(config: Config(), state: PersistentState())
        var requests: [ControlRequest] = []

        init() throws {
            loop = try EventLoop()
            directory = try makeTemporaryDirectory()
        }

        deinit { removeTree(directory) }

        var path: String { directory + "/control.sock" }

        /// A server whose requests are carried out by a real controller; `during` runs inside each.
        func start(during: ((ControlServer) -> Void)? = nil) throws -> ControlServer {
            // Weak: the server keeps this handler.
            weak var server: ControlServer?
            let started = try ControlServer.start(path: path, loop: loop.loop) { [unowned self] request in
                requests.append(request)
                if case .command(let command) = request { _ = controller.handle(.control(command)) }
                if let server { during?(server) }
                return controller.status
            }.get()
            server = started
            return started
        }

        @Test func aRequestIsAnsweredWithTheStatusAfterIt() throws {
            let server = try start()
            defer { server.stop() }
            let client = try SocketClient(path: path)
            client.send("{\"command\": \"lock\", \"orientations\": \"portrait\"}\n")
            var lines: [String] = []
            #expect(loop.dispatch(until: { lines += client.lines(); return !lines.isEmpty }))
            #expect(requests == [.command(.lock(try #require(MaskSpec(parsing: "portrait"))))])
            #expect(lines.count == 1)
            #expect(isReply(lines.first), "\(lines)")
            #expect(lock(in: lines.first) == "portrait", "\(lines)")
        }

        @Test func aRequestThatIsNotOneIsToldWhyAndTheConnectionStays() throws {
            let server = try start()
            defer { server.stop() }
            let client = try SocketClient(path: path)
            client.send("not json\n{\"command\": \"spin\"}\n{\"command\": \"status\"}\n")
            var lines: [String] = []
            #expect(loop.dispatch(until: { lines += client.lines(); return lines.count >= 3 }))
            #expect(lines.count == 3)
            #expect(isError(lines[0]))
            #expect(isError(lines[1]))
            #expect(isReply(lines[2]))
            #expect(requests == [.status])
        }

        /// A change made while a request is carried out reaches watchers after that request's reply:
        /// a client that watches hears the answer to its own request first.
        @Test func aWatcherHearsTheReplyToItsOwnRequestBeforeTheChangeItMade() throws {
            let server = try start(during: { [unowned self] server in server.broadcast(controller.status) })
            defer { server.stop() }
            let watcher = try SocketClient(path: path), other = try SocketClient(path: path)
            watcher.send("{\"command\": \"watch\"}\n")
            var watched: [String] = []
            #expect(loop.dispatch(until: { watched += watcher.lines(); return !watched.isEmpty }))
            // Its own watch request: the reply, then the change the request announced.
            #expect(loop.dispatch(until: { watched += watcher.lines(); return watched.count >= 2 }))
            #expect(watched.count == 2 && isReply(watched[0]) && isEvent(watched[1]), "\(watched)")

            // Another client's command: it gets the reply, the watcher the event, and only the watcher.
            watched = []
            other.send("{\"command\": \"lock\", \"orientations\": \"landscape\"}\n")
            var answered: [String] = []
            #expect(loop.dispatch(until: { answered += other.lines(); watched += watcher.lines(); return !answered.isEmpty && !watched.isEmpty }))
            #expect(answered.count == 1 && isReply(answered[0]), "\(answered)")
            // Only the watcher hears of the change: the other has its reply and nothing more.
            loop.dispatch(for: 0.2)
            #expect(other.lines().isEmpty)
            #expect(watched.count == 1 && isEvent(watched[0]) && lock(in: watched[0]) == "landscape", "\(watched)")
        }

        @Test func anOverlongRequestIsRefusedAndItsClientDropped() throws {
            let server = try start()
            defer { server.stop() }
            let client = try SocketClient(path: path), bystander = try SocketClient(path: path)
            client.send(String(repeating: "x", count: ControlLimits.maxRequestBytes + 100))
            var lines: [String] = []
            #expect(loop.dispatch(until: { lines += client.lines(); return !lines.isEmpty }))
            #expect(lines.count == 1 && parsed(lines.first)?["error"]?.string == "request longer than \(ControlLimits.maxRequestBytes) bytes; closing", "\(lines)")
            #expect(loop.dispatch(until: { client.closedByServer }))
            // The others are still served.
            bystander.send("{\"command\": \"status\"}\n")
            var answered: [String] = []
            #expect(loop.dispatch(until: { answered += bystander.lines(); return !answered.isEmpty }))
            #expect(requests == [.status])
        }

        /// A watcher that never reads is dropped once its unread bytes pass the bound; the loop never
        /// blocks on it, and the others are served meanwhile.
        @Test func aWatcherThatDoesNotReadIsDroppedNotWaitedFor() throws {
            let log = LogCapture()
            let server = try start()
            defer { server.stop() }
            let sleeper = try SocketClient(path: path), other = try SocketClient(path: path)
            sleeper.send("{\"command\": \"watch\"}\n")
            #expect(loop.dispatch(until: { self.requests.count == 1 }))
            let event = ControlReply.event(controller.status).utf8.count + 1
            let started = monotonicSeconds()
            // Far more than the bound and the socket's buffers together.
            for _ in 0..<(4 * ControlLimits.maxPendingBytes / event + 1000) { server.broadcast(controller.status) }
            #expect(monotonicSeconds() - started < 2, "broadcasting waited for a client that does not read")
            #expect(log.lines.contains { $0.hasPrefix("control socket: dropped a client that does not read") }, "\(log.lines)")
            other.send("{\"command\": \"status\"}\n")
            var answered: [String] = []
            #expect(loop.dispatch(until: { answered += other.lines(); return !answered.isEmpty }))
            #expect(loop.dispatch(until: { sleeper.closedByServer }))
        }

        /// A socket file left by a compositor that crashed is replaced; one a live server answers on,
        /// or anything that is not a socket, is left alone and said so.
        @Test func aStaleSocketIsReplacedAndALiveOneOrAFileIsNot() throws {
            // Stale: bound once, nobody listening any more.
            let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            #expect(UnixSocketAddress(path)?.bind(stale) == true)
            close(stale)
            #expect(!ControlServer.isServed(path: path))
            let server = try start()
            #expect(ControlServer.isServed(path: path))

            // Live: a second server on the same path is refused, and the first keeps its socket.
            switch ControlServer.start(path: path, loop: loop.loop, handle: { [unowned self] _ in controller.status }) {
            case .success(let second):
                second.stop()
                Issue.record("a second server took a live socket")
            case .failure(let problem):
                #expect(problem.description == "\(path): another compositor serves it")
            }
            #expect(ControlServer.isServed(path: path))
            server.stop()
            #expect(access(path, F_OK) != 0, "stop() leaves the socket file")

            // Not a socket: never removed.
            try writeFile(path, "mine\n")
            switch ControlServer.start(path: path, loop: loop.loop, handle: { [unowned self] _ in controller.status }) {
            case .success(let third):
                third.stop()
                Issue.record("a server replaced a file that is not a socket")
            case .failure(let problem):
                #expect(problem.description.hasSuffix("something that is not a socket is in the way; not touching it"))
            }
            #expect(readFile(path) == "mine\n")
        }
    }
}
