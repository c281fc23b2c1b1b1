import OrientCore
/// The config in force, and reloading it without ever losing it.
///
/// A reload that finds errors returns them and keeps the last good config, so a typo
/// saved in an editor never changes the running behaviour.
public struct ConfigSource: Sendable {
    /// The file to read; nil: the first that exists on the XDG search path, else built-in defaults.
    public let explicitPath: String?
    public let paths: XDGPaths
    public let shield: ParserShield
    public private(set) var current = Config()
    /// The file `current` came from; nil for built-in defaults.
    public private(set) var loadedFrom: String?

    public init(explicitPath: String?, paths: XDGPaths, shield: ParserShield = NoParserShield()) {
        self.explicitPath = explicitPath
        self.paths = paths
        self.shield = shield
    }

    /// The file that a reload would read, or nil when none exists (defaults apply).
    public func resolvedPath(fileExists: (String) -> Bool) -> String? {
        if let explicitPath { return explicitPath }
        return paths.configSearchPath.first(where: fileExists)
    }

    /// Reloads; on errors keeps the previous config and returns them.
    @discardableResult
    public mutating func reload(fileExists: (String) -> Bool) -> [ConfigDiagnostic] {
        guard let path = resolvedPath(fileExists: fileExists) else {
            current = Config()
            loadedFrom = nil
            return []
        }
        switch ConfigLoader.load(path: path, shield: shield) {
        case .success(let config):
            current = config
            loadedFrom = path
            return []
        case .failure(let errors):
            return errors.diagnostics
        }
    }
}
