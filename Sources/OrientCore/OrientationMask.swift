/// A set of physical orientations: what a device, the user's lock or an app allows.
public struct OrientationMask: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0b1111 }

    public init(_ orientation: Orientation) {
        self.init(rawValue: 1 << UInt8(orientation.clockwiseQuarterTurns))
    }

    public init<S: Sequence>(_ orientations: S) where S.Element == Orientation {
        self = []
        for o in orientations { insert(OrientationMask(o)) }
    }

    public static let normal = OrientationMask(Orientation.normal)
    public static let leftUp = OrientationMask(Orientation.leftUp)
    public static let rightUp = OrientationMask(Orientation.rightUp)
    public static let bottomUp = OrientationMask(Orientation.bottomUp)
    public static let all: OrientationMask = [.normal, .leftUp, .rightUp, .bottomUp]
    public static let allButUpsideDown: OrientationMask = [.normal, .leftUp, .rightUp]

    /// The orientations in which the panel shows portrait or landscape, given its native shape.
    public static func portrait(on panel: PanelShape) -> OrientationMask {
        panel == .portrait ? [.normal, .bottomUp] : [.leftUp, .rightUp]
    }

    public static func landscape(on panel: PanelShape) -> OrientationMask {
        panel == .landscape ? [.normal, .bottomUp] : [.leftUp, .rightUp]
    }

    public func contains(_ orientation: Orientation) -> Bool {
        contains(OrientationMask(orientation))
    }

    /// The members, in `Orientation.allCases` order.
    public var orientations: [Orientation] {
        Orientation.allCases.filter { contains($0) }
    }

    public var description: String {
        isEmpty ? "none" : orientations.map(\.rawValue).joined(separator: ",")
    }
}

/// A word the CLI and the config accept for a set of orientations.
///
/// `portrait` and `landscape` only become orientations once the panel's shape is
/// known, so configuration keeps the words and resolves them against a panel.
public enum MaskWord: String, CaseIterable, Sendable, Hashable, Codable {
    case all
    case allButUpsideDown = "all-but-upside-down"
    case portrait
    case landscape
    case normal
    case leftUp = "left-up"
    case rightUp = "right-up"
    case bottomUp = "bottom-up"

    public func resolve(on panel: PanelShape) -> OrientationMask {
        switch self {
        case .all: .all
        case .allButUpsideDown: .allButUpsideDown
        case .portrait: .portrait(on: panel)
        case .landscape: .landscape(on: panel)
        case .normal: .normal
        case .leftUp: .leftUp
        case .rightUp: .rightUp
        case .bottomUp: .bottomUp
        }
    }

    /// Every accepted word, for help texts and error messages.
    public static var allowedList: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }
}

/// A mask as people write it: one or more words, united. Resolved per panel.
public struct MaskSpec: Sendable, Hashable, CustomStringConvertible {
    public var words: [MaskWord]

    public init(_ words: [MaskWord]) { self.words = words }

    public static let all = MaskSpec([.all])

    /// One orientation, by its exact name.
    public init(exactly orientation: Orientation) {
        self.words = [MaskWord(rawValue: orientation.rawValue) ?? .normal]
    }

    /// Parses `"landscape"` or `"portrait,normal"`; returns nil on an unknown word.
    public init?(parsing text: String) {
        var words: [MaskWord] = []
        for part in text.split(separator: ",") {
            let trimmed = String(part.filter { !$0.isWhitespace })
            guard let word = MaskWord(rawValue: trimmed.lowercased()) else { return nil }
            words.append(word)
        }
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    public func resolve(on panel: PanelShape) -> OrientationMask {
        words.reduce(into: OrientationMask()) { $0.formUnion($1.resolve(on: panel)) }
    }

    public var description: String { words.map(\.rawValue).joined(separator: ",") }
}
