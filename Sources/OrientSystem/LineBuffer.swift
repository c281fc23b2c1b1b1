/// Bytes read from a stream in chunks, handed out one whole line at a time (without its newline;
/// UTF-8, invalid bytes replaced). What has no newline yet waits for the next chunk.
public struct LineBuffer: Sendable {
    private var bytes: [UInt8] = []
    /// Where the lines not yet handed out begin: the bytes before are dropped at the next append,
    /// not line by line.
    private var start = 0

    public init() {}

    public mutating func append(_ chunk: ArraySlice<UInt8>) {
        if start > 0 {
            bytes.removeSubrange(..<start)
            start = 0
        }
        bytes += chunk
    }

    /// The next whole line, or nil until one has come.
    public mutating func nextLine() -> String? {
        guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        defer { start = newline + 1 }
        return String(decoding: bytes[start..<newline], as: UTF8.self)
    }

    /// How many bytes wait for their newline.
    public var waiting: Int { bytes.count - start }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        start = 0
    }
}
