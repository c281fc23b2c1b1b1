import Glibc

/// Reads a file the user named (a config, a trace, the saved state) and says in a sentence what
/// is wrong with it when it cannot be read as text: never a Foundation domain or an error code.
public enum UserFile {
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        case missing(String)
        case directory(String)
        case unreadable(String, reason: String)
        case binary(String)
        /// A FIFO, a socket, a device: reading one may never end (a FIFO without a writer blocks).
        case notRegular(String, kind: String)
        /// Larger than any file of its kind can sensibly be.
        case tooLarge(String, bytes: Int, limit: Int)

        public var path: String {
            switch self {
            case .missing(let p), .directory(let p), .unreadable(let p, _), .binary(let p), .notRegular(let p, _),
                 .tooLarge(let p, _, _): p
            }
        }

        /// What is wrong, as the rest of a sentence that starts with the file's name.
        public var reason: String {
            switch self {
            case .missing: "there is no such file"
            case .directory: "it is a directory, not a file"
            case .unreadable(_, let why): "it cannot be read (\(why))"
            case .binary: "it is not a text file (it holds binary data, or text that is not UTF-8)"
            case .notRegular(_, let kind): "it is \(kind), not a regular file"
            case .tooLarge(_, let bytes, let limit): "it is \(UserFile.size(bytes)), larger than \(UserFile.size(limit)), the most such a file may be"
            }
        }

        public var description: String { "\(path): \(reason)" }
    }

    /// The file's text; `-` reads standard input. Anything but a regular file is refused before
    /// a byte is read (opening a FIFO to read it waits for a writer, and a device may never end),
    /// and so is a file larger than `limit`: a trace of an hour at 100 Hz is about 10 MiB; a
    /// config or a saved state is a few kilobytes, and their readers pass a smaller limit.
    public static func read(_ path: String, limit: Int = 64 << 20) -> Result<String, Problem> {
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            // O_NONBLOCK: the open itself returns at once, even for a FIFO nobody writes to.
            fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR { return .failure(.missing(path)) }
                if code == ENXIO { return .failure(.notRegular(path, kind: "a socket or a device nobody serves")) }
                return .failure(.unreadable(path, reason: describe(code)))
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let why = describe(errno)
                close(fd)
                return .failure(.unreadable(path, reason: why))
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                close(fd)
                return .failure(.directory(path))
            case let kind:
                close(fd)
                return .failure(.notRegular(path, kind: describe(kind: kind)))
            }
            guard Int(info.st_size) <= limit else {
                close(fd)
                return .failure(.tooLarge(path, bytes: Int(info.st_size), limit: limit))
            }
        }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return .failure(.unreadable(path, reason: describe(errno))) }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        // Standard input, or a file that grew while it was read.
        guard bytes.count <= limit else { return .failure(.tooLarge(path, bytes: bytes.count, limit: limit)) }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return .failure(.binary(path)) }
        return .success(text)
    }

    /// A size as a person reads it: "812 bytes", "64 KiB", "1.2 MB".
    public static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes % 1024 == 0 && bytes < 1 << 20 { return "\(bytes >> 10) KiB" }
        if bytes < 1_000_000 { return "\(bytes / 1000) kB" }
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    private static func describe(kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
