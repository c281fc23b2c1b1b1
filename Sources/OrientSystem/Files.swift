import Glibc

/// Writes a sysfs attribute whole.
public func writeSysfsText(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(operation: "open \(path)", errno: Glibc.errno) }
    defer { Glibc.close(fd) }
    let bytes = Array(text.utf8)
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if n != bytes.count { throw SystemError(operation: "write \(path)", errno: n < 0 ? Glibc.errno : EIO) }
}

/// The names in a directory (none when it cannot be read).
public func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
