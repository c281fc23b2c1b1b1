/// Orientations as apps name them: Qt's `Qt::ScreenOrientation` bits, which Mir's
/// `MirOrientationMode`, Ubuntu Touch's `.desktop` keys and our Wayland protocol share.
///
/// These names are about the *content* (portrait or landscape, maybe inverted), so they only become
/// physical orientations once the panel's native shape is known. Qt defines them as a cycle in
/// which each is the previous one with the device turned a further 90° counter-clockwise:
/// portrait → landscape → inverted portrait → inverted landscape (Qt: "portrait is rotated 90°
/// clockwise relative to landscape"; on Android, Qt maps ROTATION_0…270 onto this cycle for a
/// phone). The panel's natural orientation is the first of its own shape:
///
/// | bit | name               | native-landscape panel (tablet) | native-portrait panel (phone) |
/// |-----|--------------------|---------------------------------|-------------------------------|
/// | 1   | portrait           | left-up                         | normal                        |
/// | 2   | landscape          | normal                          | right-up                      |
/// | 4   | inverted portrait  | right-up                        | bottom-up                     |
/// | 8   | inverted landscape | bottom-up                       | left-up                       |
///
/// `protocol/wlr-orient-unstable-v1.xml` documents the same table; `ContentOrientationsTests`
/// checks both directions of it.
public struct ContentOrientations: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let portrait = ContentOrientations(rawValue: 1)
    public static let landscape = ContentOrientations(rawValue: 2)
    public static let invertedPortrait = ContentOrientations(rawValue: 4)
    public static let invertedLandscape = ContentOrientations(rawValue: 8)
    /// The panel's natural orientation, whatever its shape (Lomiri's `primary`; Qt's
    /// `PrimaryOrientation` is 0, which our protocol uses for "no preference" instead).
    public static let primary = ContentOrientations(rawValue: 16)

    /// The four bits a client may send over the protocol.
    public static let protocolBits: ContentOrientations = [.portrait, .landscape, .invertedPortrait, .invertedLandscape]

    /// The bits in cycle order; each is the previous with the device turned 90° counter-clockwise.
    private static let cycle: [ContentOrientations] = [.portrait, .landscape, .invertedPortrait, .invertedLandscape]

    /// A mask a client sent: nil when it sets a bit outside the four (a protocol error).
    public init?(protocolMask: UInt32) {
        guard protocolMask & ~Self.protocolBits.rawValue == 0 else { return nil }
        self.init(rawValue: protocolMask)
    }

    /// The physical orientation a single content orientation means on `panel`.
    private static func physical(cycleIndex: Int, on panel: PanelShape) -> Orientation {
        // The natural orientation is cycle index 0 (portrait) on a phone, 1 (landscape) on a
        // tablet; each step further is a quarter turn counter-clockwise, i.e. −1 clockwise.
        let natural = panel == .portrait ? 0 : 1
        return Orientation(clockwiseQuarterTurns: natural - cycleIndex)
    }

    /// The physical orientations these name on a panel of this shape.
    public func resolve(on panel: PanelShape) -> OrientationMask {
        var mask = OrientationMask()
        for (i, bit) in Self.cycle.enumerated() where contains(bit) {
            mask.insert(OrientationMask(Self.physical(cycleIndex: i, on: panel)))
        }
        if contains(.primary) { mask.insert(.normal) }
        return mask
    }

    /// The single content orientation that `orientation` shows on a panel of this shape.
    public init(_ orientation: Orientation, on panel: PanelShape) {
        let index = Self.cycle.indices.first { Self.physical(cycleIndex: $0, on: panel) == orientation } ?? 0
        self = Self.cycle[index]
    }

    /// Lomiri's `.desktop` words, in the order `description` prints them.
    public static let desktopWords: [(word: String, bits: ContentOrientations)] = [
        ("portrait", .portrait), ("landscape", .landscape), ("invertedPortrait", .invertedPortrait),
        ("invertedLandscape", .invertedLandscape), ("primary", .primary),
    ]

    /// Parses `X-Lomiri-Supported-Orientations` values (`portrait;landscape`); unknown words are
    /// returned so that the caller can report them. Empty when nothing known was named.
    public static func parseDesktopList(_ words: [String]) -> (orientations: ContentOrientations, unknown: [String]) {
        var result = ContentOrientations()
        var unknown: [String] = []
        for raw in words {
            let word = raw.trimmingSpaces()
            guard !word.isEmpty else { continue }
            if let match = desktopWords.first(where: { $0.word.lowercased() == word.lowercased() }) {
                result.insert(match.bits)
            } else {
                unknown.append(word)
            }
        }
        return (result, unknown)
    }

    public var description: String {
        let words = Self.desktopWords.filter { contains($0.bits) }.map(\.word)
        return words.isEmpty ? "none" : words.joined(separator: ";")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
