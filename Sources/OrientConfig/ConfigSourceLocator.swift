import OrientCore
/// Finds where a key or a value stands in a TOML file, for error messages.
///
/// TOMLKit parses the file but does not tell where each value came from, so this
/// scans the text that TOMLKit has already accepted for `key = value` lines under
/// `[table]` and `[[array]]` headers. It never decides what the file means; when it
/// cannot find a place it falls back to the nearest thing it knows (the table's header,
/// then line 1), which makes a message less precise but never wrong about its content.
struct ConfigSourceLocator {
    struct Position: Hashable, Sendable {
        var line: Int
        var column: Int
    }

    private struct Entry {
        var key: Position
        var value: Position
        /// The value's text (to the end of its array when it spans lines).
        var valueText: [(Position, Character)]
    }

    /// Key paths such as `scope`, `device.orientations`, `app[2].match`.
    private var entries: [String: Entry] = [:]
    private var headers: [String: Position] = [:]

    init(text: String) {
        var table = ""
        var arrayCounts: [String: Int] = [:]
        var open: (path: String, depth: Int)? = nil
        // By scalars: "\r\n" is one Character, and a CRLF file's lines must be counted too.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            let chars = Array(rawLine)
            if let pending = open {
                // A multi-line array continues: collect its characters.
                var depth = pending.depth
                for (c, ch) in chars.enumerated() {
                    entries[pending.path]?.valueText.append((Position(line: lineNumber, column: c + 1), ch))
                    if ch == "[" { depth += 1 } else if ch == "]" { depth -= 1 }
                }
                open = depth > 0 ? (pending.path, depth) : nil
                continue
            }
            guard let first = chars.firstIndex(where: { !$0.isWhitespace }), chars[first] != "#" else { continue }
            if chars[first] == "[" {
                let isArray = first + 1 < chars.count && chars[first + 1] == "["
                let body = String(chars[(first + (isArray ? 2 : 1))...].prefix { $0 != "]" })
                let name = body.filter { !$0.isWhitespace }
                if isArray {
                    let n = arrayCounts[name, default: 0]
                    arrayCounts[name] = n + 1
                    table = "\(name)[\(n)]"
                } else {
                    table = name
                }
                headers[table] = Position(line: lineNumber, column: first + 1)
                continue
            }
            guard let eq = chars[first...].firstIndex(of: "=") else { continue }
            let key = String(chars[first..<eq]).filter { !$0.isWhitespace && $0 != "\"" && $0 != "'" }
            let path = table.isEmpty ? key : "\(table).\(key)"
            let valueStart = chars[(eq + 1)...].firstIndex(where: { !$0.isWhitespace }) ?? eq + 1
            var entry = Entry(key: Position(line: lineNumber, column: first + 1),
                              value: Position(line: lineNumber, column: valueStart + 1), valueText: [])
            var depth = 0
            for c in valueStart..<chars.count {
                entry.valueText.append((Position(line: lineNumber, column: c + 1), chars[c]))
                if chars[c] == "[" { depth += 1 } else if chars[c] == "]" { depth -= 1 }
            }
            entries[path] = entry
            if depth > 0 { open = (path, depth) }
        }
    }

    /// Where the key itself stands.
    func key(_ path: String) -> Position {
        entries[path]?.key ?? fallback(path)
    }

    /// Where the value of a key starts.
    func value(_ path: String) -> Position {
        entries[path]?.value ?? fallback(path)
    }

    /// Where the `index`-th element of an array value starts (elements are found by
    /// their separators outside strings), or the value's start.
    func element(_ path: String, _ index: Int) -> Position {
        guard let entry = entries[path] else { return fallback(path) }
        var depth = 0, n = 0, inString: Character? = nil, atElementStart = false
        for (pos, ch) in entry.valueText {
            if let quote = inString {
                if ch == quote { inString = nil }
                continue
            }
            if atElementStart, !ch.isWhitespace, ch != "]" {
                if n == index { return pos }
                atElementStart = false
            }
            switch ch {
            case "[":
                depth += 1
                if depth == 1 { atElementStart = true }
            case "]": depth -= 1
            case "," where depth == 1: n += 1; atElementStart = true
            case "\"", "'": inString = ch
            default: break
            }
            if ch == "#" { break }
        }
        return entry.value
    }

    /// The line a key stands on, if it stands on one of its own (nil: not found, or its value
    /// goes on over more lines).
    func keyLine(_ path: String) -> Int? {
        guard let entry = entries[path], entry.valueText.allSatisfy({ $0.0.line == entry.key.line }) else { return nil }
        return entry.key.line
    }

    /// The line a table's header stands on, if it has one.
    func headerLine(_ table: String) -> Int? { headers[table]?.line }

    /// Where a table's header stands (for a missing key in it).
    func fallbackHeader(_ path: String) -> Position {
        headers[path] ?? fallback(path)
    }

    private func fallback(_ path: String) -> Position {
        var parent = path
        while let dot = parent.lastIndex(of: ".") {
            parent = String(parent[..<dot])
            if let e = entries[parent] { return e.value }
            if let h = headers[parent] { return h }
        }
        return headers[parent] ?? Position(line: 1, column: 1)
    }
}
