/// What a client said about itself over our protocol (`wlr_orient_toplevel_v1`).
public struct ClientDeclaration: Sendable, Hashable {
    /// The supported orientations; empty: no preference (the protocol's 0).
    public var orientations: ContentOrientations
    /// Whether it takes orientation as input; nil until it says.
    public var input: Bool?

    public init(orientations: ContentOrientations = [], input: Bool? = nil) {
        self.orientations = orientations
        self.input = input
    }

    /// The protocol's `set_mode` value: 0 screen, 1 input; nil for anything else (a protocol error).
    public static func input(protocolMode value: UInt32) -> Bool? {
        switch value {
        case 0: false
        case 1: true
        default: nil
        }
    }
}

/// What an app's `.desktop` file says about orientation (Ubuntu Touch / Lomiri keys).
public struct DesktopOrientation: Sendable, Hashable {
    /// `X-Lomiri-Supported-Orientations` (else `X-Ubuntu-Supported-Orientations`); nil if absent.
    public var orientations: ContentOrientations?
    /// `X-Lomiri-Rotates-Window-Contents` (else the `X-Ubuntu-` key): it takes orientation as input.
    public var rotatesContents: Bool?
    /// The file it came from, for `status`.
    public var path: String

    public init(orientations: ContentOrientations? = nil, rotatesContents: Bool? = nil, path: String) {
        self.orientations = orientations
        self.rotatesContents = rotatesContents
        self.path = path
    }
}

/// The `.desktop` files that say something about orientation, by desktop ID (the file name
/// without `.desktop`, as the Desktop Entry spec derives it). Read at start and on reload by the
/// CLI, which has the key-file parser; looked up here, in memory, so that an app launched at any
/// moment is known before its first configure.
public struct DesktopIndex: Sendable, Hashable {
    public var entries: [String: DesktopOrientation]
    public init(_ entries: [String: DesktopOrientation] = [:]) { self.entries = entries }

    /// The entry whose desktop ID is `appID` (an app_id given with `.desktop` is found too).
    public func entry(for appID: String) -> DesktopOrientation? {
        if let e = entries[appID] { return e }
        if appID.hasSuffix(".desktop") { return entries[String(appID.dropLast(8))] }
        return nil
    }
}

/// Where one part of an app's wish came from.
public enum WishSource: Sendable, Hashable {
    /// The client said so over our protocol.
    case client
    /// The last `[[app]]` rule matching its app_id (the rule's `match`).
    case rule(String)
    /// Its `.desktop` file (the path).
    case desktopFile(String)
    /// Nothing says anything: every orientation, no input mode.
    case none

    /// A word for `status`: "client", "rule", "desktop-file", "none".
    public var kind: String {
        switch self {
        case .client: "client"
        case .rule: "rule"
        case .desktopFile: "desktop-file"
        case .none: "none"
        }
    }

    /// The rule's match or the file's path, if any.
    public var detail: String? {
        switch self {
        case .rule(let m): m
        case .desktopFile(let p): p
        case .client, .none: nil
        }
    }
}

/// What an app asks of the screen, before it is resolved on a panel.
public struct AppWish: Sendable, Hashable {
    /// The orientations, in the words they were given in (resolved per panel shape).
    public enum Orientations: Sendable, Hashable {
        case all
        case words(MaskSpec)
        case content(ContentOrientations)

        public func resolve(on panel: PanelShape) -> OrientationMask {
            switch self {
            case .all: .all
            case .words(let spec): spec.resolve(on: panel)
            case .content(let bits): bits.resolve(on: panel)
            }
        }
    }

    public var appID: String
    public var orientations: Orientations
    public var orientationsSource: WishSource
    /// It takes orientation as input: the screen stays put while it is in front.
    public var input: Bool
    public var inputSource: WishSource
    /// Its `[[app]] transition`, if a rule gave one.
    public var transition: TransitionKind?

    /// Each part from the first source that says anything about it: the client's own
    /// declaration, else the last matching `[[app]]` rule, else its `.desktop` file, else
    /// nothing (all orientations, no input mode).
    public static func resolve(appID: String, declaration: ClientDeclaration?, config: Config,
                               desktop: DesktopIndex) -> AppWish {
        let rule = config.rule(for: appID)
        let entry = desktop.entry(for: appID)

        var orientations = Orientations.all
        var orientationsSource = WishSource.none
        if let d = declaration, !d.orientations.isEmpty {
            (orientations, orientationsSource) = (.content(d.orientations), .client)
        } else if let rule, let spec = rule.orientations {
            (orientations, orientationsSource) = (.words(spec), .rule(rule.match))
        } else if let entry, let bits = entry.orientations, !bits.isEmpty {
            (orientations, orientationsSource) = (.content(bits), .desktopFile(entry.path))
        }

        var input = false
        var inputSource = WishSource.none
        if let said = declaration?.input {
            (input, inputSource) = (said, .client)
        } else if let rule, let said = rule.sensorInput {
            (input, inputSource) = (said, .rule(rule.match))
        } else if let entry, let said = entry.rotatesContents {
            (input, inputSource) = (said, .desktopFile(entry.path))
        }
        return AppWish(appID: appID, orientations: orientations, orientationsSource: orientationsSource,
                       input: input, inputSource: inputSource, transition: rule?.transition)
    }

    /// The policy's client level on a panel of this shape.
    public func level(on panel: PanelShape) -> ClientLevel {
        ClientLevel(appID: appID, mask: orientations.resolve(on: panel), sensorInput: input)
    }
}
