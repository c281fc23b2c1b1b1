import CEventLoop
import OrientCore
import OrientSystem

/// One connection events go out on, which never blocks its host and never loses an event in
/// silence. A sequenced-packet socket carries each event as one message; what the reader has no
/// room for yet waits here, in order, and goes when the loop says the socket is writable again
/// (or with the next event, before a loop is attached). Past `limit` bytes waiting, events are
/// dropped and counted, and the count takes their place in the stream as an event of its own
/// (`OrientEvent.lost`), sent as soon as there is room. A reader that has gone ends the channel.
final class EventChannel {
    private enum Waiting {
        case message([UInt8])
        case lost(Int)
    }

    private enum Sent {
        case sent, noRoom, tooLong, readerGone
    }

    private var fd: FileDescriptor?
    private let limit: Int
    /// What waits, oldest first from `head` (taken from the front without moving the rest).
    private var waiting: [Waiting] = []
    private var head = 0
    private var waitingBytes = 0
    private var writable: LoopSource?

    init(fd: FileDescriptor, limit: Int) {
        self.fd = fd
        self.limit = limit
    }

    /// Whether anything waits for the reader.
    var isBehind: Bool { head < waiting.count }

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
        waiting.append(.message(message))
        waitingBytes += message.count
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
            let item = waiting[head]
            let message: [UInt8]
            switch item {
            case .message(let bytes): message = bytes
            case .lost(let count): message = Array(OrientEvent.lost(count: count).json.serialized.utf8)
            }
            switch attempt(message) {
            case .sent:
                break
            case .tooLong:
                // Never sendable: counted in its place instead.
                waiting[head] = .lost(1)
                continue sending
            case .noRoom:
                break sending
            case .readerGone:
                return
            }
            if case .message(let bytes) = item { waitingBytes -= bytes.count }
            head += 1
        }
        if !isBehind || head >= 1024 {
            waiting.removeFirst(head)
            head = 0
        }
        watchForRoom()
    }

    private func countLost() {
        if isBehind, case .lost(let n) = waiting[waiting.count - 1] {
            waiting[waiting.count - 1] = .lost(n + 1)
        } else {
            waiting.append(.lost(1))
        }
        flush()
    }

    private func attempt(_ message: [UInt8]) -> Sent {
        guard let fd else { return .readerGone }
        switch message.withUnsafeBytes({ fd.send($0) }) {
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
        (waiting, head, waitingBytes) = ([], 0, 0)
    }
}
