import ArgumentParser
import FoundationEssentials
import OrientCore
import OrientJSON
import OrientService
import OrientSystem

/// Where the control socket is: `--socket`, else `$WLR_ORIENT_SOCKET`, else
/// `$XDG_RUNTIME_DIR/wlr-orient.$WAYLAND_DISPLAY.sock`.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The compositor's control socket.", discussion: "Default: $WLR_ORIENT_SOCKET, else $XDG_RUNTIME_DIR/wlr-orient.$WAYLAND_DISPLAY.sock."),
            completion: .file())
    var socket: String?

    var path: String? {
        socket ?? ControlSocketPath.path(environment: ProcessInfo.processInfo.environment)
    }
}

/// A connection to the plugin's control socket: JSON lines each way (docs/control-socket.md).
final class ControlClient {
    enum Failure: Error, CustomStringConvertible {
        /// Nothing listens there: no compositor with wlr-orient runs for this display.
        case notRunning(path: String, why: String)
        /// Something is there but cannot be reached (permissions, a path too long).
        case unreachable(path: String, why: String)
        case noPath
        /// The compositor said no, or said something unreadable.
        case refused(String)
        /// Another user's program listens there (a shared runtime directory): not spoken to.
        case foreign(path: String, uid: UInt32, name: String?)

        var description: String {
            switch self {
            case .notRunning(let path, let why):
                "No compositor with wlr-orient is running here: nothing answers at \(path) (\(why))."
            case .unreachable(let path, let why):
                "Cannot reach the compositor's control socket at \(path): \(why)."
            case .noPath:
                "No compositor with wlr-orient can be found: $XDG_RUNTIME_DIR is not set (or give --socket)."
            case .refused(let message):
                "The compositor refused: \(message)"
            case .foreign(let path, let uid, let name):
                "The control socket at \(path) is held by another user's program (\(name.map { "\($0), " } ?? "")uid \(uid)), not by your compositor: "
                    + "not talking to it. Is $XDG_RUNTIME_DIR shared with other users? It should be yours alone."
            }
        }
    }

    private let fd: FileDescriptor
    private var buffer: [UInt8] = []

    private init(fd: FileDescriptor) { self.fd = fd }
    deinit { fd.close() }

    static func connect(_ options: ConnectionOptions) -> Result<ControlClient, Failure> {
        guard let path = options.path else { return .failure(.noPath) }
        switch UnixSocket.connect(to: path) {
        case .success(let fd):
            // As the server checks its clients, the client checks its server: only this user's
            // compositor (or root's) may be told to lock or be believed about the screen.
            if case .success(let uid) = UnixSocket.peerUser(of: fd), uid != UnixSocket.ownUser, uid != 0 {
                fd.close()
                return .failure(.foreign(path: path, uid: uid, name: UnixSocket.userName(of: uid)))
            }
            return .success(ControlClient(fd: fd))
        case .failure(let error) where error.pathTooLong:
            return .failure(.unreachable(path: path, why: "the path is too long for a socket"))
        case .failure(let error) where error.noSuchFile:
            return .failure(.notRunning(path: path, why: "no such socket"))
        case .failure(let error) where error.refused:
            return .failure(.notRunning(path: path, why: "connection refused"))
        case .failure(let error):
            return .failure(.unreachable(path: path, why: error.reason))
        }
    }

    func send(_ request: ControlRequest) throws {
        let bytes = Array((request.json.serialized + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            switch bytes[sent...].withUnsafeBytes({ fd.send($0) }) {
            case .success(let n) where n > 0:
                sent += n
            case .success:
                throw Failure.refused("the connection closed")
            case .failure(let error):
                // A compositor that refuses a client (another user, too many clients) answers on
                // accept and closes, so the request can meet a closed socket: its answer says why.
                if let line = readLine() { _ = try Self.status(fromReply: line) }
                throw Failure.refused("the connection closed (\(error.reason))")
            }
        }
    }

    /// The next line the compositor sends; nil when it closed the connection.
    func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard case .success(let n) = chunk.withUnsafeMutableBytes({ fd.receive(into: $0) }), n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    /// Sends a request and returns the status the reply carries (its raw JSON text too).
    func ask(_ request: ControlRequest) throws -> (status: ControllerStatus, json: String) {
        try send(request)
        guard let line = readLine() else { throw Failure.refused("the connection closed without an answer") }
        return try Self.status(fromReply: line)
    }

    /// The status in a reply or event line.
    static func status(fromReply line: String) throws -> (status: ControllerStatus, json: String) {
        guard case .success(let reply) = JSONReader.parse(line), case .object = reply else {
            throw Failure.refused("an unreadable answer: \(line)")
        }
        if case .bool(false) = reply["ok"] { throw Failure.refused(reply["error"]?.string ?? line) }
        guard let status = reply["status"] else { throw Failure.refused("an answer without status: \(line)") }
        let text = status.serialized
        do {
            return (try JSONDecoder().decode(ControllerStatus.self, from: Data(text.utf8)), text)
        } catch {
            throw Failure.refused("a status this wlr-orient cannot read (\(error)); are the plugin and the CLI of one version?")
        }
    }
}
