import CGLib
import OrientConfig
import OrientCore
import OrientSystem

/// Finds the `.desktop` files that say something about orientation and reads them with GLib's
/// key-file parser (the reference implementation of the Desktop Entry format).
///
/// Files are looked up as the Desktop Entry spec says: in `applications/` under
/// `$XDG_DATA_HOME` (default `~/.local/share`), then under each of `$XDG_DATA_DIRS` (default
/// `/usr/local/share:/usr/share`); a file in a subdirectory gets the ID `dir-name`; the first
/// file with an ID wins. Only the `[Desktop Entry]` keys `X-Lomiri-Supported-Orientations`,
/// `X-Lomiri-Rotates-Window-Contents` and their older `X-Ubuntu-` names are read.
public enum DesktopIndexReader {
    public static let orientationKeys = ["X-Lomiri-Supported-Orientations", "X-Ubuntu-Supported-Orientations"]
    public static let rotatesKeys = ["X-Lomiri-Rotates-Window-Contents", "X-Ubuntu-Rotates-Window-Contents"]
    /// Files larger than this are not read (no desktop entry is; a huge file is a mistake).
    static let maxFileBytes = 256 * 1024

    /// The `applications` directories to search, most important first.
    public static func directories(environment: [String: String]) -> [String] {
        let home = environment["HOME"] ?? "/"
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let dirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return ([dataHome] + dirs).map { $0 + "/applications" }
    }

    /// The index, and a line for each problem met (an unknown orientation word, an unreadable file).
    public static func read(directories: [String]) -> (index: DesktopIndex, problems: [String]) {
        var entries: [String: DesktopOrientation] = [:]
        var seen: Set<String> = []
        var problems: [String] = []
        for directory in directories {
            for (id, path) in desktopFiles(in: directory) where seen.insert(id).inserted {
                // Most files say nothing about orientation: skip them without parsing. One that
                // cannot be read as a small text file (a FIFO, a device, a huge file) is skipped
                // before it is read: reading a FIFO would wait for a writer.
                guard case .success(let text) = UserFile.read(path, limit: maxFileBytes),
                      text.contains("Orientations") || text.contains("Rotates-Window-Contents")
                else { continue }
                switch parse(path: path, text: text) {
                case .success(let (entry, warnings)):
                    problems += warnings
                    if let entry { entries[id] = entry }
                case .failure(let why):
                    problems.append("\(path): \(why); ignored")
                }
            }
        }
        return (DesktopIndex(entries), problems)
    }

    /// Every `*.desktop` under `directory`, with its desktop ID (subdirectories joined by `-`).
    static func desktopFiles(in directory: String) -> [(id: String, path: String)] {
        var found: [(String, String)] = []
        for relative in filesBelow(directory) {
            guard relative.hasSuffix(".desktop") else { continue }
            let id = String(relative.dropLast(".desktop".count).map { $0 == "/" ? "-" : $0 })
            found.append((id, directory + "/" + relative))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// One file's orientation keys (`text`, read from `path`); nil when it has none.
    static func parse(path: String, text: String) -> Result<(DesktopOrientation?, [String]), DesktopFileError> {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_data(file, text, gsize(text.utf8.count), GKeyFileFlags(rawValue: 0), &error) != 0 else {
            defer { g_error_free(error) }
            return .failure(DesktopFileError(error.map { String(cString: $0.pointee.message) } ?? "unreadable"))
        }
        let group = "Desktop Entry"
        var warnings: [String] = []
        var entry = DesktopOrientation(path: path)
        if let key = orientationKeys.first(where: { g_key_file_has_key(file, group, $0, nil) != 0 }) {
            var count = 0
            if let list = g_key_file_get_string_list(file, group, key, &count, nil) {
                let words = (0..<count).compactMap { list[$0].map { String(cString: $0) } }
                g_strfreev(list)
                let (bits, unknown) = ContentOrientations.parseDesktopList(words)
                if !unknown.isEmpty {
                    warnings.append("\(path): \(key): unknown orientation \(unknown.joined(separator: ", ")) (known: \(ContentOrientations.desktopWords.map(\.word).joined(separator: ", ")))")
                }
                if !bits.isEmpty { entry.orientations = bits }
            }
        }
        if let key = rotatesKeys.first(where: { g_key_file_has_key(file, group, $0, nil) != 0 }) {
            var error: UnsafeMutablePointer<GError>?
            let value = g_key_file_get_boolean(file, group, key, &error)
            if let error {
                warnings.append("\(path): \(key): \(String(cString: error.pointee.message))")
                g_error_free(error)
            } else {
                entry.rotatesContents = value != 0
            }
        }
        let saysSomething = entry.orientations != nil || entry.rotatesContents != nil
        return .success((saysSomething ? entry : nil, warnings))
    }
}

public struct DesktopFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
