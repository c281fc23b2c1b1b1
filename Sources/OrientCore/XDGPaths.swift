/// Where wlr-orient reads its config and keeps its state, per the XDG base-directory spec.
/// The environment is passed in so that tests and the plugin can choose it.
public struct XDGPaths: Sendable, Hashable {
    public var environment: [String: String]

    public init(environment: [String: String]) { self.environment = environment }

    private var home: String { environment["HOME"] ?? "/" }

    private func absolute(_ key: String) -> String? {
        guard let v = environment[key], v.hasPrefix("/") else { return nil }   // relative values are ignored by the spec
        return v
    }

    /// `$XDG_CONFIG_HOME/wlr-orient/config.toml`.
    public var userConfigFile: String {
        (absolute("XDG_CONFIG_HOME") ?? home + "/.config") + "/wlr-orient/config.toml"
    }

    /// The config files to try, in order: the user's, then each of `$XDG_CONFIG_DIRS` (default /etc/xdg).
    public var configSearchPath: [String] {
        let dirs = (environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg").split(separator: ":")
            .map(String.init).filter { $0.hasPrefix("/") }
        return [userConfigFile] + (dirs.isEmpty ? ["/etc/xdg"] : dirs).map { $0 + "/wlr-orient/config.toml" }
    }

    /// `$XDG_STATE_HOME/wlr-orient`: the lock and the last felt orientation.
    public var stateDirectory: String {
        (absolute("XDG_STATE_HOME") ?? home + "/.local/state") + "/wlr-orient"
    }
}
