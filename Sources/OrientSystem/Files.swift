import CSystem
import Glibc

/// What stat(2) says of a file that callers look at: what kind of file it is, its size, and how
/// many names it has (0: removed while open).
public struct FileStatus: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, other
    }

    public var kind: Kind
    public var size: Int
    public var linkCount: Int

    init(_ info: stat) {
        kind = switch info.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFLNK: .symbolicLink
        default: .other
        }
        size = Int(info.st_size)
        linkCount = Int(info.st_nlink)
    }
}

/// Writes a sysfs attribute whole (truncating, as libiio's writes do: a shorter value over a
/// longer one in a plain file, as umockdev's are, would keep the longer one's tail).
public func writeSysfsText(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
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

/// The paths, relative to `path`, of everything below it that is not a directory, through at
/// most `depth` levels of subdirectories; sorted. A link to a file counts; a link to a directory
/// is not followed (as find and Foundation's enumerator do not), so a link back up cannot loop.
public func filesBelow(_ path: String, depth: Int = 8) -> [String] {
    var found: [String] = []
    for name in directoryEntries(path).sorted() {
        let full = path + "/" + name
        var link = stat(), target = stat()
        guard lstat(full, &link) == 0 else { continue }
        if link.st_mode & S_IFMT == S_IFDIR {
            if depth > 0 { found += filesBelow(full, depth: depth - 1).map { name + "/" + $0 } }
        } else if link.st_mode & S_IFMT != S_IFLNK || (stat(full, &target) == 0 && target.st_mode & S_IFMT != S_IFDIR) {
            found.append(name)
        }
    }
    return found
}

/// Whether `path` is a file this process may run.
public func isExecutable(_ path: String) -> Bool {
    access(path, X_OK) == 0
}

/// `mkdir -p`: `path` and the directories above it, as far as they are missing.
public func makeDirectories(_ path: String) -> Result<Void, SystemError> {
    var built = ""
    for part in path.split(separator: "/") {
        built += "/" + part
        if mkdir(built, 0o755) != 0, errno != EEXIST { return .failure(SystemError(operation: "mkdir \(built)", errno: errno)) }
    }
    return .success(())
}

/// Writes `bytes` to `path` whole or not at all: a temporary file of this writer's own beside it
/// (`.NAME.XXXXXX`, made by mkostemp, close-on-exec: several sessions and the CLI save state.toml at once, and a
/// shared temporary name let one truncate what another was about to rename), flushed to the
/// disk, then renamed over it. The file is left mode `mode` (0644).
public func writeFileAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) -> Result<Void, SystemError> {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(directory).\(name).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { glue_temporary_file($0.baseAddress) }
    guard fd >= 0 else { return .failure(SystemError(operation: "create a temporary file beside \(path)", errno: errno)) }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let file = FileDescriptor(rawValue: fd)
    let moded: SystemError? = fchmod(fd, mode) == 0 ? nil : SystemError(operation: "fchmod \(temporary)", errno: errno)
    let written = file.writeAll(bytes)
    let flushed: SystemError? = if case .failure(let error) = file.flushToDisk() { error } else { nil }
    file.close()
    if let moded { unlink(temporary); return .failure(moded) }
    if case .failure(let error) = written { unlink(temporary); return .failure(error) }
    if let flushed { unlink(temporary); return .failure(flushed) }
    guard rename(temporary, path) == 0 else {
        let error = SystemError(operation: "rename", errno: errno)
        unlink(temporary)
        return .failure(error)
    }
    return .success(())
}

/// Runs `body` with the signals that end a program from a terminal or a session (SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT) held back until it returns, when they take effect: a file replaced through a
/// temporary one (`writeFileAtomically`) is then replaced whole or not at all, never left beside
/// a temporary copy by a Ctrl-C.
public func withEndingSignalsHeld<T>(_ body: () throws -> T) rethrows -> T {
    var held = sigset_t()
    sigemptyset(&held)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&held, signal) }
    var before = sigset_t()
    pthread_sigmask(SIG_BLOCK, &held, &before)
    defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
    return try body()
}

/// A small file's text (a sysfs attribute), nil when it cannot be read.
public func readSmallFile(_ path: String, limit: Int = 4096) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var bytes = [UInt8](repeating: 0, count: limit)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n >= 0 else { return nil }
    return String(decoding: bytes[..<n].prefix { $0 != 0 }, as: UTF8.self)
}

/// Whether this process may write `path` (its owner, mode and ACLs as the kernel checks them).
public func mayWrite(_ path: String) -> Bool {
    access(path, W_OK) == 0
}

/// Whether a device node can be opened for reading now: nil when it can (it is closed again at
/// once), else why not (EBUSY: another process holds a node that opens once; EACCES: not this
/// user's).
public func probeOpen(_ path: String) -> SystemError? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return SystemError(operation: "open \(path)", errno: Glibc.errno) }
    Glibc.close(fd)
    return nil
}

/// Removes a file; one that is not there is no error.
public func removeFile(_ path: String) {
    _ = unlink(path)
}

/// Whether something is at `path` (a link is followed).
public func pathExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}

/// `path` with every link resolved (realpath(3)), nil when it cannot be.
public func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// What a symbolic link points to, nil when `path` is none.
public func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A file's permission bits, nil when it cannot be looked at.
public func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}
