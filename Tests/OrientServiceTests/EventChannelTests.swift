import CEventLoop
import Glibc
import OrientCore
import OrientJSON
import OrientSystem
@testable import OrientService
import TestSupport
import Testing

/// The messages waiting for the reader, as JSON, without blocking.
private func read(_ reader: Int32) -> [JSON] {
    var messages: [JSON] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return messages }
        if let json = buffer[..<n].withUnsafeBytes({ try? JSONReader.parse($0).get() }) { messages.append(json) }
    }
}

private func event(_ n: Int) -> [UInt8] {
    Array(OrientEvent.log(level: "debug", line: "event \(n) " + String(repeating: "x", count: 120)).json.serialized.utf8)
}

private func number(of message: JSON) -> Int? {
    message["line"]?.string?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
}

/// The events channel on a real event loop and a real sequenced-packet socket: a reader that
/// falls behind gets every event in order, or is told in their place how many were dropped; one
/// that goes away ends the channel without a signal and without the loop spinning.
extension OnTheEventLoop {
    @Suite final class EventChannelTests {
        let loop: EventLoop
        let directory: String
        let listener: Int32

        init() throws {
            loop = try EventLoop()
            directory = try makeTemporaryDirectory()
            listener = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue | SOCK_CLOEXEC.rawValue), 0)
            try #require(listener >= 0)
            try #require(UnixSocketAddress(directory + "/events.sock")?.bind(listener) == true)
            try #require(Glibc.listen(listener, 4) == 0)
        }

        deinit {
            close(listener)
            removeTree(directory)
        }

        /// A channel to this test's listener, and the reader's end of it (non-blocking). The send
        /// buffer is as small as a system's default (net.core.wmem_max, 208 KiB) or smaller, so that
        /// what the kernel holds runs out as it would on any machine.
        func connect(limit: Int, sendBuffer: Int32 = 64 << 10) throws -> (EventChannel, Int32) {
            let fd = try UnixSocket.connectSequencedPacket(to: directory + "/events.sock", sendBuffer: sendBuffer).get()
            let reader = accept(listener, nil, nil)
            try #require(reader >= 0)
            _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
            return (EventChannel(fd: fd, limit: limit), reader)
        }

        @Test func aReaderThatStopsForTwoSecondsGetsEveryEventInOrder() throws {
            let (channel, reader) = try connect(limit: Events.waitingLimit)
            defer { close(reader) }
            channel.attach(loop: loop.loop)
            defer { channel.detach() }
            // 10,000 events over two seconds, the loop running between them, nobody reading.
            let started = monotonicSeconds()
            for n in 0..<10_000 {
                channel.send(event(n))
                if n % 100 == 99 {
                    let due = started + 2.0 * Double(n + 1) / 10_000
                    loop.dispatch(for: max(0, due - monotonicSeconds()))
                }
            }
            #expect(channel.isBehind, "the socket's buffer held all 10,000: nothing waited")
            var received: [JSON] = []
            #expect(loop.dispatch(until: { received += read(reader); return !channel.isBehind }))
            received += read(reader)
            #expect(received.compactMap(number) == Array(0..<10_000))
            #expect(received.allSatisfy { $0["event"]?.string == "log" })
        }

        @Test func eventsBeyondTheLimitAreCountedInTheirPlace() throws {
            // Room to wait for about 50 events beyond what the socket holds.
            let (channel, reader) = try connect(limit: 50 * event(0).count)
            defer { close(reader) }
            channel.attach(loop: loop.loop)
            defer { channel.detach() }
            var sent = 0
            while !channel.isBehind {
                channel.send(event(sent))
                sent += 1
            }
            for _ in 0..<5_000 {
                channel.send(event(sent))
                sent += 1
            }
            var received: [JSON] = []
            #expect(loop.dispatch(until: { received += read(reader); return !channel.isBehind }))
            received += read(reader)
            let lost = received.filter { $0["event"]?.string == "lost" }
            #expect(lost.count == 1, "one count, where the events were dropped")
            let counted = lost.compactMap { message -> Int? in if case .int(let n) = message["count"] { n } else { nil } }.reduce(0, +)
            let numbers = received.compactMap(number)
            #expect(numbers.count + counted == sent, "every event arrived or was counted")
            #expect(numbers == numbers.sorted(), "in order")
            // After the count, sending goes on as before.
            channel.send(event(sent))
            #expect(loop.dispatch(until: { read(reader).compactMap(number) == [sent] }))
        }

        @Test func aReaderThatGoesEndsTheChannelQuietly() throws {
            let (channel, reader) = try connect(limit: Events.waitingLimit)
            channel.attach(loop: loop.loop)
            defer { channel.detach() }
            while !channel.isBehind { channel.send(event(0)) }
            close(reader)
            // No SIGPIPE (the test process would end), and the hang-up is taken once: the
            // loop then sleeps its full time with nothing to do.
            #expect(loop.dispatch(until: { !channel.isBehind }, within: 5))
            let before = monotonicSeconds()
            _ = wl_event_loop_dispatch(loop.loop, 200)
            #expect(monotonicSeconds() - before > 0.15, "the loop keeps waking for a reader that has gone")
            channel.send(event(1))
            #expect(!channel.isBehind)
        }
    }
}
