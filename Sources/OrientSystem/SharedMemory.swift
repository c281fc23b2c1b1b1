import Glibc

/// A file mapped shared, to read and write (the memory of a wl_shm pool, which the compositor
/// maps too). It is unmapped when the last reference goes, so a buffer never outlives its owner.
public final class SharedMemory {
    public let base: UnsafeMutableRawPointer
    public let size: Int

    private init(base: UnsafeMutableRawPointer, size: Int) {
        self.base = base
        self.size = size
    }

    /// Maps the first `size` bytes of `file`; the descriptor may be closed afterwards.
    public static func map(_ file: FileDescriptor, size: Int) -> Result<SharedMemory, SystemError> {
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0), mapped != MAP_FAILED else {
            return .failure(SystemError(operation: "mmap", errno: errno))
        }
        return .success(SharedMemory(base: mapped, size: size))
    }

    deinit {
        munmap(base, size)
    }
}
