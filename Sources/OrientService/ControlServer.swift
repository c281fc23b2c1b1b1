import CEventLoop
import OrientCore
import OrientJSON
import OrientSystem

/// The control socket (docs/control-socket.md), served on the compositor's event loop without
/// ever blocking it: every descriptor is non-blocking, what a client sends and what it has not
/// read yet are bounded (`ControlLimits`), and a client over a bound is dropped, never waited for.
/// Only the compositor's own user may connect (the socket is 0600, and the peer's uid is checked).
public final class ControlServer {
    public let path: String
    private let loop: OpaquePointer?
    private let uid = UnixSocket.ownUser
    private var listener: FileDescriptor?
    private var listenerSource: LoopSource?
    /// Out of file descriptors, accepting pauses for a moment instead of spinning on a listener
    /// that stays readable.
    private var acceptRetry: LoopSource?
    private var connections: [FileDescriptor: Connection] = [:]
    /// Carries out a request; returns the status after it.
    private let handle: (ControlRequest) -> ControllerStatus
    /// Changes announced while a request is carried out: sent after its reply, so that a client
    /// that watches hears the answer to its own request first.
    private var held: [ControllerStatus]?

    private final class Connection {
        let fd: FileDescriptor
        var source: LoopSource?
        var input: [UInt8] = []
        var output: [UInt8] = []
        var sent = 0
        var watching = false
        /// Close once everything queued has been sent (after an error reply that ends it).
        var closing = false
        init(fd: FileDescriptor) { self.fd = fd }
        var pending: Int { output.count - sent }
    }

    private init(path: String, loop: OpaquePointer?, handle: @escaping (ControlRequest) -> ControllerStatus) {
        self.path = path
        self.loop = loop
        self.handle = handle
    }

    /// Binds the socket at `path` (replacing a stale one a crashed compositor left behind) and
    /// starts accepting.
    public static func start(path: String, loop: OpaquePointer?, handle: @escaping (ControlRequest) -> ControllerStatus) -> Result<ControlServer, Problem> {
        let server = ControlServer(path: path, loop: loop, handle: handle)
        if let problem = server.listen() { return .failure(problem) }
        return .success(server)
    }

    private func listen() -> Problem? {
        switch UnixSocket.listen(at: path, backlog: 16) {
        case .failure(.pathTooLong): return Problem("\(path): too long for a socket path")
        case .failure(.notASocket): return Problem("\(path): something that is not a socket is in the way; not touching it")
        case .failure(.served): return Problem("\(path): another compositor serves it")
        case .failure(.system(let error)): return Problem("\(path): \(error.reason)")
        case .success(let fd):
            listener = fd
            listenerSource = LoopSource.readable(fd.rawValue, on: loop) { [unowned self] _ in acceptAll() }
            return nil
        }
    }

    /// Whether a live server answers at `path` (a refused connection means nobody is there: a
    /// live server with a full backlog says EAGAIN).
    public static func isServed(path: String) -> Bool {
        UnixSocket.isServed(path)
    }

    /// Closes every connection and the socket, and removes its file. Safe to call twice.
    public func stop() {
        for connection in Array(connections.values) { drop(connection) }
        listenerSource?.remove()
        listenerSource = nil
        acceptRetry?.remove()
        acceptRetry = nil
        if let listener {
            listener.close()
            UnixSocket.remove(path)
        }
        listener = nil
    }

    // MARK: connections

    private func acceptAll() {
        while let listener {
            let fd: FileDescriptor
            switch UnixSocket.accept(on: listener) {
            case .success(let accepted): fd = accepted
            case .failure(let error):
                if error.outOfDescriptors { pauseAccepting() }
                return   // EAGAIN: all taken; anything else: next time
            }
            let peer: UInt32
            switch UnixSocket.peerUser(of: fd) {
            case .success(let user): peer = user
            case .failure(let error):
                Log.error("control socket: refused a client whose uid cannot be known (\(error.reason))")
                Events.emit(.controlRefused(uid: nil))
                refuse(fd, "permission denied: who you are cannot be known")
                continue
            }
            guard peer == uid else {
                refuse(fd, "permission denied: only uid \(uid) may control this compositor")
                Log.error("control socket: refused a client of uid \(peer) (only \(uid) may connect)")
                Events.emit(.controlRefused(uid: Int(peer)))
                continue
            }
            guard connections.count < ControlLimits.maxClients else {
                refuse(fd, "too many clients (\(ControlLimits.maxClients)); try again later")
                continue
            }
            let connection = Connection(fd: fd)
            connection.source = LoopSource.readable(fd.rawValue, on: loop) { [unowned self] mask in ready(fd: fd, mask: mask) }
            guard connection.source != nil else {
                fd.close()   // the loop could not watch it (out of descriptors): not served, not kept
                continue
            }
            connections[fd] = connection
        }
    }

    private func pauseAccepting() {
        guard acceptRetry == nil, let listenerSource else { return }
        Log.error("control socket: out of file descriptors; accepting again in a second")
        listenerSource.watch(0)
        acceptRetry = LoopSource.timer(on: loop) { [unowned self] in
            acceptRetry?.remove()
            acceptRetry = nil
            self.listenerSource?.watch(UInt32(WL_EVENT_READABLE))
        }
        if let acceptRetry { acceptRetry.arm(milliseconds: 1000) } else {
            listenerSource.watch(UInt32(WL_EVENT_READABLE))
        }
    }

    /// Whether `c` is still served (a descriptor number may be reused by a newer connection).
    private func serving(_ c: Connection) -> Bool { connections[c.fd] === c }

    /// Tells a client it is not served (one try, never waiting) and closes it.
    private func refuse(_ fd: FileDescriptor, _ message: String) {
        let line = Array((ControlReply.error(message) + "\n").utf8)
        _ = line.withUnsafeBytes { fd.send($0) }
        fd.close()
    }

    private func ready(fd: FileDescriptor, mask: UInt32) {
        guard let connection = connections[fd], !connection.closing else { return }
        if mask & UInt32(WL_EVENT_WRITABLE) != 0 { flush(connection) }
        if mask & UInt32(WL_EVENT_READABLE) != 0 || mask & UInt32(WL_EVENT_HANGUP | WL_EVENT_ERROR) != 0 {
            readAvailable(connection)
        }
    }

    /// Reads what the client sent (at most 64 KiB per wakeup, so one client cannot hold the
    /// loop), and answers each complete line.
    private func readAvailable(_ c: Connection) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var budget = 64 * 1024
        while budget > 0, serving(c), !c.closing {
            let n: Int
            switch chunk.withUnsafeMutableBytes({ c.fd.receive(into: $0) }) {
            case .success(let count) where count > 0: n = count
            case .failure(let error) where error.wouldBlock: return
            default: return drop(c)   // end of file, or an error
            }
            budget -= n
            c.input += chunk[..<n]
            while let newline = c.input.firstIndex(of: 10), !c.closing, serving(c) {
                guard newline <= ControlLimits.maxRequestBytes else { break }
                let line = c.input[..<newline]
                c.input.removeSubrange(...newline)
                answer(Array(line), on: c)
            }
            // A request that is already too long, complete or not.
            if c.input.count > ControlLimits.maxRequestBytes, (c.input.firstIndex(of: 10) ?? c.input.count) > ControlLimits.maxRequestBytes {
                // One try to say why, then it goes: nothing more is read from it or waited for.
                c.input = []
                c.closing = true
                let line = Array((ControlReply.error("request longer than \(ControlLimits.maxRequestBytes) bytes; closing") + "\n").utf8)
                _ = line.withUnsafeBytes { c.fd.send($0) }
                return drop(c)
            }
        }
    }

    private func answer(_ bytes: [UInt8], on c: Connection) {
        var line = bytes[...]
        while let last = line.last, last == 13 || last == 32 || last == 9 { line.removeLast() }
        guard !line.isEmpty else { return }
        let parsed = line.withUnsafeBytes { JSONReader.parse($0) }.flatMap(ControlRequest.parse)
        switch parsed {
        case .failure(let error):
            queue(ControlReply.error(error.description), on: c)
        case .success(let request):
            if request == .watch { c.watching = true }
            held = []
            let status = handle(request)
            let changes = held ?? []
            held = nil
            queue(ControlReply.ok(status), on: c)
            changes.forEach(broadcast)
        }
    }

    /// Tells every watcher what changed.
    public func broadcast(_ status: ControllerStatus) {
        if held != nil { return held?.append(status) ?? () }
        let watchers = connections.values.filter(\.watching)
        guard !watchers.isEmpty else { return }
        let line = ControlReply.event(status)
        for c in watchers { queue(line, on: c) }
    }

    private func queue(_ line: String, on c: Connection) {
        guard serving(c) else { return }
        let bytes = Array((line + "\n").utf8)
        guard c.pending + bytes.count <= ControlLimits.maxPendingBytes else {
            Log.error("control socket: dropped a client that does not read (\(c.pending / 1024) KiB unread)")
            Events.emit(.controlDropped(unreadBytes: c.pending))
            return drop(c)
        }
        if c.sent > 0, c.sent == c.output.count {
            c.output.removeAll(keepingCapacity: true)
            c.sent = 0
        }
        c.output += bytes
        flush(c)
    }

    /// Sends what it can now; the rest waits for the socket to become writable.
    private func flush(_ c: Connection) {
        guard serving(c) else { return }
        while c.sent < c.output.count {
            let sent = c.output[c.sent...].withUnsafeBytes { c.fd.send($0) }
            if case .failure(let error) = sent, error.wouldBlock {
                // What was sent is let go of now, so that only the unread bytes are held.
                if c.sent >= 64 * 1024 {
                    c.output.removeFirst(c.sent)
                    c.sent = 0
                }
                c.source?.watch(UInt32(WL_EVENT_READABLE | WL_EVENT_WRITABLE))
                return
            }
            guard case .success(let n) = sent, n > 0 else { return drop(c) }
            c.sent += n
        }
        c.output.removeAll(keepingCapacity: c.output.count <= 64 * 1024)
        c.sent = 0
        c.source?.watch(UInt32(WL_EVENT_READABLE))
        if c.closing { drop(c) }
    }

    private func drop(_ c: Connection) {
        guard serving(c) else { return }
        connections[c.fd] = nil
        c.source?.remove()
        c.source = nil
        c.fd.close()
    }
}
