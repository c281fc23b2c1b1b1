import Glibc
import OrientSystem

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
        let file: FileDescriptor
        if path == "-" {
            file = FileDescriptor(rawValue: 0)
        } else {
            // Non-blocking: the open itself returns at once, even for a FIFO nobody writes to.
            switch FileDescriptor.openForReading(path, nonBlocking: true) {
            case .success(let opened): file = opened
            case .failure(let error):
                if error.isNotFound { return .failure(.missing(path)) }
                if error.errno == ENXIO { return .failure(.notRegular(path, kind: "a socket or a device nobody serves")) }
                return .failure(.unreadable(path, reason: describe(error)))
            }
            let info: FileStatus
            switch file.status() {
            case .success(let status): info = status
            case .failure(let error):
                file.close()
                return .failure(.unreadable(path, reason: describe(error)))
            }
            switch info.kind {
            case .regular:
                break
            case .directory:
                file.close()
                return .failure(.directory(path))
            case let kind:
                file.close()
                return .failure(.notRegular(path, kind: describe(kind: kind)))
            }
            guard info.size <= limit else {
                file.close()
                return .failure(.tooLarge(path, bytes: info.size, limit: limit))
            }
        }
        defer { if file.rawValue != 0 { file.close() } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        reading: while bytes.count <= limit {
            switch chunk.withUnsafeMutableBytes({ file.read(into: $0) }) {
            case .success(0): break reading
            case .success(let n): bytes += chunk[..<n]
            case .failure(let error): return .failure(.unreadable(path, reason: describe(error)))
            }
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

    private static func describe(kind: FileStatus.Kind) -> String {
        switch kind {
        case .fifo: "a FIFO (named pipe)"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .symbolicLink: "a symbolic link"
        case .regular, .directory, .other: "a special file"
        }
    }

    private static func describe(_ error: SystemError) -> String {
        if error.denied { return "permission denied" }
        if error.errno == EISDIR { return "it is a directory" }
        return error.reason.lowercased()
    }
}
