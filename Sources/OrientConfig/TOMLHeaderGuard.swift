import OrientCore
/// Catches the table headers that make TOMLKit abort the process.
///
/// toml++ (inside TOMLKit 0.6.0) asserts, and so aborts the whole process, on a table header whose
/// name does not start with a bare-key character or a quote: `[` followed by a newline, `#`, `=`,
/// `ü`… It should report an error instead; in the compositor that abort would end the session
/// over a typo. So every TOML text is checked here before TOMLKit sees it. This only finds where
/// headers are (outside strings and multi-line arrays); TOMLKit still does all the parsing.
enum TOMLHeaderGuard {
    /// The position (1-based) of the first header toml++ would abort on, or nil.
    static func firstUnsafeHeader(in text: String) -> (line: Int, column: Int)? {
        var inBasic = false, inLiteral = false  // inside a """ or ''' multi-line string
        var depth = 0                           // open [ of a multi-line array value
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let chars = Array(line.unicodeScalars)
            var i = 0
            if !inBasic && !inLiteral && depth == 0 {
                while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
                if i < chars.count, chars[i] == "[" {
                    if let column = unsafeHeaderColumn(chars, from: i) { return (index + 1, column) }
                    continue
                }
            }
            while i < chars.count {
                let c = chars[i]
                if inBasic || inLiteral {
                    let quote: Unicode.Scalar = inBasic ? "\"" : "'"
                    if starts(chars, i, quote) { inBasic = false; inLiteral = false; i += 3; continue }
                    if inBasic, c == "\\" { i += 2; continue }
                    i += 1
                    continue
                }
                switch c {
                case "#":
                    i = chars.count
                case "\"", "'":
                    if starts(chars, i, c) {
                        if c == "\"" { inBasic = true } else { inLiteral = true }
                        i += 3
                    } else {
                        i += 1
                        while i < chars.count, chars[i] != c { i += (c == "\"" && chars[i] == "\\") ? 2 : 1 }
                        i += 1
                    }
                case "[": depth += 1; i += 1
                case "]": depth = max(0, depth - 1); i += 1
                default: i += 1
                }
            }
        }
        return nil
    }

    /// For a header starting at `start`: the column of the character toml++ cannot take as the
    /// start of a name, or nil when the header is one toml++ handles (well formed or not).
    private static func unsafeHeaderColumn(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        var j = start + 1
        if j < chars.count, chars[j] == "[" { j += 1 }
        while j < chars.count, chars[j] == " " || chars[j] == "\t" { j += 1 }
        guard j < chars.count else { return j + 1 }  // the line ends: a newline follows the '['
        let c = chars[j]
        let safe = (c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c)))
            || c == "_" || c == "-" || c == "\"" || c == "'" || c == "]"
        return safe ? nil : j + 1
    }

    private static func starts(_ chars: [Unicode.Scalar], _ i: Int, _ quote: Unicode.Scalar) -> Bool {
        i + 2 < chars.count && chars[i] == quote && chars[i + 1] == quote && chars[i + 2] == quote
    }
}
