import CEventLoop
import OrientCore
import OrientSystem

/// One connection events go out on, which never blocks its host and never loses an event in
/// silence. A sequenced-packet socket carries each event as one message; what the reader has no
/// room for yet waits here, in order, and goes when the loop says the socket is writable again
/// (or with the next event, before a loop is attached). Past `limit` bytes waiting, events are
/// dropped and counted, and the count takes their place in the stream as an event of its own
/// (`OrientEvent.lost`), sent as soon as there is room. A reader that has gone ends the channel.
///
/// What waits is kept in one block of bytes, not an allocation per event, and the block is given
/// back once nothing waits: a reader that stops reading costs the host `limit` at most, and
/// nothing once it has caught up or gone (thousands of small allocations would stay in the
/// allocator's heap, resident, long after).
final class EventChannel {
    private enum Sent {
        case sent, noRoom, tooLong, readerGone
    }

    private var fd: FileDescriptor?
    private let limit: Int
    /// The waiting messages' bytes, back to back, the oldest from `headOffset`.
    private var bytes: [UInt8] = []
    /// Each waiting item, oldest first from `head`: a message's length, or minus the count of
    /// events lost in its place.
    private var items: [Int] = []
    private var head = 0
    private var headOffset = 0
    private var writable: LoopSource?

    init(fd: FileDescriptor, limit: Int) {
        self.fd = fd
        self.limit = limit
    }

    /// Whether anything waits for the reader.
    var isBehind: Bool { head < items.count }

    /// Bytes of events waiting.
    var waitingBytes: Int { bytes.count - headOffset }

    /// Sends `message` now, or keeps it until there is room (beyond `limit`, counts it as lost).
    func send(_ message: [UInt8]) {
        guard fd != nil else { return }
        if !isBehind {
            switch attempt(message) {
            case .sent, .readerGone: return
            case .tooLong: return countLost()
            case .noRoom: break
            }
        }
        guard waitingBytes + message.count <= limit else { return countLost() }
        bytes += message
        items.append(message.count)
        flush()
    }

    /// Sends what waits whenever the socket has room again.
    func attach(loop: OpaquePointer?) {
        guard let fd, writable == nil else { return }
        writable = LoopSource.readable(fd.rawValue, on: loop) { [unowned self] mask in
            // The reader hung up: epoll says so whatever is watched, so the channel ends here.
            if mask & UInt32(WL_EVENT_HANGUP | WL_EVENT_ERROR) != 0 { return close() }
            flush()
        }
        watchForRoom()
    }

    /// The loop is going: what still waits goes with the next event, if one comes.
    func detach() {
        writable.take()?.remove()
    }

    /// Sends what waits, oldest first, until the socket is full.
    func flush() {
        sending: while isBehind {
            let item = items[head]
            let sent: Sent
            if item < 0 {
                sent = attempt(Array(OrientEvent.lost(count: -item).json.serialized.utf8))
            } else {
                sent = bytes[headOffset..<(headOffset + item)].withUnsafeBytes { attempt(raw: $0) }
            }
            switch sent {
            case .sent:
                break
            case .tooLong:
                // Never sendable: counted in its place instead.
                if item > 0 { headOffset += item }
                items[head] = -1
                continue sending
            case .noRoom:
                break sending
            case .readerGone:
                return
            }
            if item > 0 { headOffset += item }
            head += 1
        }
        if !isBehind {
            release()
        } else if headOffset >= 1 << 20 || head >= 4096 {
            // Sent bytes go from the front now and then, not at every send.
            bytes.removeFirst(headOffset)
            items.removeFirst(head)
            (head, headOffset) = (0, 0)
        }
        watchForRoom()
    }

    /// Nothing waits: the block goes back to the allocator (and a large one to the system).
    private func release() {
        (bytes, items, head, headOffset) = ([], [], 0, 0)
    }

    private func countLost() {
        if isBehind, items[items.count - 1] < 0 {
            items[items.count - 1] -= 1
        } else {
            items.append(-1)
        }
        flush()
    }

    private func attempt(_ message: [UInt8]) -> Sent {
        message.withUnsafeBytes { attempt(raw: $0) }
    }

    private func attempt(raw message: UnsafeRawBufferPointer) -> Sent {
        guard let fd else { return .readerGone }
        switch fd.send(message) {
        case .success:
            return .sent
        case .failure(let error) where error.noRoomNow:
            return .noRoom
        case .failure(let error) where error.messageTooLong:
            return .tooLong
        case .failure:
            close()
            return .readerGone
        }
    }

    private func watchForRoom() {
        writable?.watch(isBehind ? UInt32(WL_EVENT_WRITABLE) : 0)
    }

    private func close() {
        writable.take()?.remove()
        fd.take()?.close()
        release()
    }
}
