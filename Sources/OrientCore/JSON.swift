/// A JSON value, for the control socket's messages and the sensor's reports. Writing is here (the
/// core decides what is said); reading bytes into a `JSON` is the edges' job, with a real parser
/// (json-c: OrientJSON.JSONReader, in the plugin, the daemon, the sensor helper and the CLI).
public indirect enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number that need not be whole, written as Swift writes a Double (read back exactly);
    /// one that is not finite has no JSON and is written `null`.
    case double(Double)
    case string(String)
    case array([JSON])
    /// Keys in the order they are written.
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.double(let x), .double(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized)
    }

    /// The member named `key` of an object, if any.
    public subscript(key: String) -> JSON? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A number as a Double, whole or not.
    public var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// One line of JSON (no newline inside: control characters in strings are escaped).
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d == 0 ? 0 : d) : "null"   // -0.0 as 0.0: equal, one text
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += ", " }
                Self.writeString(key, to: &out)
                out += ": "
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        BackslashEscapes.append(s, json: true, to: &out)
        out += "\""
    }
}
