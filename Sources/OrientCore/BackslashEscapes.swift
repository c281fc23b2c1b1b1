/// Backslash escapes that keep text on one line, for the two formats the core writes: a JSON
/// string's contents (`"` and every control character escaped too, as JSON requires) and a field
/// of the plugin inputs' tab-separated lines (only what would break the line or the field, and the
/// backslash itself: `PluginInputs.unescape` reads it back).
public enum BackslashEscapes {
    /// `s` as a quoted JSON string, which is also a TOML basic string (TOML takes JSON's escapes).
    public static func quoted(_ s: String) -> String {
        var out = "\""
        append(s, json: true, to: &out)
        return out + "\""
    }

    static func append(_ s: String, json: Bool, to out: inout String) {
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\"" where json: out += "\\\""
            case _ where json && (scalar.value < 0x20 || scalar.value == 0x7f):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
