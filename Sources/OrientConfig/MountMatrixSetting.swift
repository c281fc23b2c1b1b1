import OrientCore

/// Puts `mount-matrix` under `[device]` into a config's text, as `calibrate --write` does: that
/// line alone is changed (its indentation and a comment after it kept), or the line is added
/// right under the `[device]` header, or a `[device]` table at the end; every other byte stays.
/// The result must read back as the same config with only the matrix changed: else nothing is
/// written, and the person is told which line to put where.
public enum MountMatrixSetting {
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file has problems already: they are fixed first.
        case invalid([ConfigDiagnostic])
        /// The line could not be placed so that the file says the same with the new matrix
        /// (a `device.mount-matrix` dotted key, an inline `device = { … }`).
        case notPlaced(file: String, line: String)

        public var description: String {
            switch self {
            case .invalid(let diagnostics):
                (diagnostics.map(\.description) + ["fix the config first; nothing was written"]).joined(separator: "\n")
            case .notPlaced(let file, let line):
                "\(file): cannot tell where [device] is set in it; nothing was written. Put this line under [device] yourself: \(line)"
            }
        }
    }

    /// The line that sets the matrix.
    public static func line(_ matrix: MountMatrix) -> String { "mount-matrix = \"\(matrix)\"" }

    /// A comment after a `key = "value"` line's value, with the blanks before it ("" if none).
    static func comment(after line: Substring) -> String {
        guard let eq = line.firstIndex(of: "="), let open = line[eq...].firstIndex(where: { $0 == "\"" || $0 == "'" }),
              let close = line[line.index(after: open)...].firstIndex(of: line[open]),
              let hash = line[line.index(after: close)...].firstIndex(of: "#") else { return "" }
        let blanks = line[line.index(after: close)..<hash]
        return String(blanks) + String(line[hash...])
    }

    public static func set(_ matrix: MountMatrix, in text: String, file: String) -> Result<String, Problem> {
        let before: Config
        switch ConfigLoader.load(text: text, file: file) {
        case .success(let config): before = config
        case .failure(let errors): return .failure(.invalid(errors.diagnostics))
        }
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        // By scalars: "\r\n" is one Character, and a CRLF file keeps its "\r"s.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        let locator = ConfigSourceLocator(text: text)
        let setting = line(matrix)
        if let n = locator.keyLine("device.mount-matrix") {
            // The key as written (its indentation, a dotted `device.mount-matrix`), a new value.
            let old = lines[n - 1]
            let cr = old.hasSuffix("\r") ? "\r" : ""
            let body = cr.isEmpty ? Substring(old) : old.dropLast()
            guard let eq = body.firstIndex(of: "=") else { return .failure(.notPlaced(file: file, line: setting)) }
            lines[n - 1] = body[...eq] + " \"\(matrix)\"" + comment(after: body) + cr
        } else if let n = locator.headerLine("device") {
            let cr = lines[n - 1].hasSuffix("\r") ? "\r" : ""
            lines.insert(setting + cr, at: n)
        } else {
            if let last = lines.last, last.isEmpty { lines.removeLast() }
            let cr = newline == "\r\n" ? "\r" : ""
            if !lines.isEmpty, !(lines.last ?? "").allSatisfy({ $0.isWhitespace }) { lines.append(cr) }
            lines += ["[device]" + cr, setting + cr, ""]
        }
        let result = lines.joined(separator: "\n")
        var expected = before
        expected.device.mountMatrix = matrix
        guard case .success(let after) = ConfigLoader.load(text: result, file: file), after == expected else {
            return .failure(.notPlaced(file: file, line: setting))
        }
        return .success(result)
    }
}
