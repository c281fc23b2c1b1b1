import Glibc

extension FileDescriptor {
    /// Opens `path` to add to its end (made, mode 0644, if it is not there): several writers
    /// (a compositor started again) never overwrite each other's lines, and a write to a FIFO
    /// nobody reads fails (`SystemError.wouldBlock`) rather than wait.
    public static func openForAppending(_ path: String) -> Result<FileDescriptor, SystemError> {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o644)
        guard fd >= 0 else { return .failure(SystemError(operation: "open \(path)", errno: errno)) }
        return .success(FileDescriptor(rawValue: fd))
    }
}
