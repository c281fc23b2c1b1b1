/// The control socket's language (docs/control-socket.md): one JSON object per line each way.
/// The edges read bytes into `JSON` with a real parser; what a request means, and every reply,
/// are decided here.
public enum ControlRequest: Sendable, Hashable {
    case status
    /// Status now, then an event line on every change, until the client goes.
    case watch
    case command(ControlCommand)

    /// The request a JSON object asks for, or why it is not one.
    public static func parse(_ json: JSON) -> Result<ControlRequest, ControlError> {
        guard case .object = json else { return .failure(ControlError("a request is a JSON object, like {\"command\": \"status\"}")) }
        guard let command = json["command"]?.string else {
            return .failure(ControlError("no \"command\"; one of: \(commands.joined(separator: ", "))"))
        }
        switch command {
        case "status": return .success(.status)
        case "watch": return .success(.watch)
        case "unlock": return .success(.command(.unlock))
        case "toggle": return .success(.command(.toggle))
        case "reload": return .success(.command(.reload))
        case "suggestion":
            switch json["action"]?.string {
            case "accept": return .success(.command(.acceptSuggestion))
            case "dismiss": return .success(.command(.dismissSuggestion))
            default: return .failure(ControlError("\"suggestion\" needs \"action\": \"accept\" or \"dismiss\""))
            }
        case "lock":
            guard let words = json["orientations"]?.string else {
                return .failure(ControlError("\"lock\" needs \"orientations\": orientation words or \"current\""))
            }
            if words == "current" { return .success(.command(.lockCurrent)) }
            guard let spec = MaskSpec(parsing: words) else {
                return .failure(ControlError("cannot lock to \"\(words)\": use \(MaskWord.allowedList), or current"))
            }
            return .success(.command(.lock(spec)))
        default:
            return .failure(ControlError("unknown command \"\(command)\"; one of: \(commands.joined(separator: ", "))"))
        }
    }

    public static let commands = ["status", "watch", "lock", "unlock", "toggle", "reload", "suggestion"]

    /// The request as a JSON line (what the CLI sends).
    public var json: JSON {
        switch self {
        case .status: .object([("command", .string("status"))])
        case .watch: .object([("command", .string("watch"))])
        case .command(.lock(let spec)): .object([("command", .string("lock")), ("orientations", .string(spec.description))])
        case .command(.lockCurrent): .object([("command", .string("lock")), ("orientations", .string("current"))])
        case .command(.unlock): .object([("command", .string("unlock"))])
        case .command(.toggle): .object([("command", .string("toggle"))])
        case .command(.reload): .object([("command", .string("reload"))])
        case .command(.acceptSuggestion): .object([("command", .string("suggestion")), ("action", .string("accept"))])
        case .command(.dismissSuggestion): .object([("command", .string("suggestion")), ("action", .string("dismiss"))])
        }
    }
}

public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The lines the server sends.
public enum ControlReply {
    /// The answer to a request that succeeded: the status after it.
    public static func ok(_ status: ControllerStatus) -> String {
        JSON.object([("ok", .bool(true)), ("status", status.json)]).serialized
    }

    public static func error(_ message: String) -> String {
        JSON.object([("ok", .bool(false)), ("error", .string(message))]).serialized
    }

    /// To a watcher, on each change.
    public static func event(_ status: ControllerStatus) -> String {
        JSON.object([("event", .string("status")), ("status", status.json)]).serialized
    }
}

/// How much the server takes from, and holds for, one client: a client cannot make the
/// compositor allocate without bound, and one that never reads is dropped, not waited for.
public enum ControlLimits {
    /// A request line longer than this is refused and the client dropped.
    public static let maxRequestBytes = 4096
    /// Replies and events a client has not read yet; beyond this it is dropped.
    public static let maxPendingBytes = 256 * 1024
    /// Clients at once; one more is told so and closed.
    public static let maxClients = 128
}

/// Where the control socket lives: `$XDG_RUNTIME_DIR/wlr-orient.<display>.sock`, named after the
/// Wayland display so that two compositors of one user have one each. The plugin exports the
/// path to the compositor's children as `WLR_ORIENT_SOCKET`.
public enum ControlSocketPath {
    public static let variable = "WLR_ORIENT_SOCKET"

    /// The path for a display name (`wayland-1`, or an absolute socket path), in a runtime
    /// directory; nil without an absolute runtime directory.
    public static func path(runtimeDirectory: String?, display: String) -> String? {
        guard let dir = runtimeDirectory, dir.hasPrefix("/") else { return nil }
        let name = display.split(separator: "/").last.map(String.init) ?? display
        return dir + "/wlr-orient." + (name.isEmpty ? "wayland-0" : name) + ".sock"
    }

    /// Where a client looks: `$WLR_ORIENT_SOCKET`, else the path for `$WAYLAND_DISPLAY`
    /// (default `wayland-0`).
    public static func path(environment: [String: String]) -> String? {
        if let explicit = environment[variable], !explicit.isEmpty { return explicit }
        return path(runtimeDirectory: environment["XDG_RUNTIME_DIR"], display: environment["WAYLAND_DISPLAY"] ?? "wayland-0")
    }
}
