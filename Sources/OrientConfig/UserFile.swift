import Foundation   // on Linux it brings Glibc's stat, open and read

/// Reads a file the user named (a config, a trace, the saved state) and says in a sentence what
/// is wrong with it when it cannot be read as text: never a Foundation domain or an error code.
public enum UserFile {
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        case missing(String)
        case directory(String)
        case unreadable(String, reason: String)
        case binary(String)

        public var path: String {
            switch self {
            case .missing(let p), .directory(let p), .unreadable(let p, _), .binary(let p): p
            }
        }

        /// What is wrong, as the rest of a sentence that starts with the file's name.
        public var reason: String {
            switch self {
            case .missing: "there is no such file"
            case .directory: "it is a directory, not a file"
            case .unreadable(_, let why): "it cannot be read (\(why))"
            case .binary: "it is not a text file (it holds binary data, or text that is not UTF-8)"
            }
        }

        public var description: String { "\(path): \(reason)" }
    }

    /// The file's text; `-` reads standard input. Its size is bounded (64 MiB: a trace of an
    /// hour at 100 Hz is about 10 MiB), so that a device file cannot fill the memory.
    public static func read(_ path: String, limit: Int = 64 << 20) -> Result<String, Problem> {
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            var info = stat()
            guard stat(path, &info) == 0 else {
                return .failure(errno == ENOENT || errno == ENOTDIR ? .missing(path) : .unreadable(path, reason: describe(errno)))
            }
            if info.st_mode & S_IFMT == S_IFDIR { return .failure(.directory(path)) }
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return .failure(.unreadable(path, reason: describe(errno))) }
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
        guard bytes.count <= limit else { return .failure(.unreadable(path, reason: "it is larger than \(limit >> 20) MiB")) }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return .failure(.binary(path)) }
        return .success(text)
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
