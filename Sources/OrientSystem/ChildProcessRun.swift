/// A program run to its end for its output, never holding the caller past a deadline: a child
/// that keeps its output open, or closes it and stays, is killed when the time is up.
extension ChildProcess {
    /// Why `run` has no output to give.
    public enum RunFailure: Error, CustomStringConvertible, Sendable {
        /// It could not be started (`spawn`: the program; else the pipe).
        case cannotStart(SystemError)
        /// Its output passed `largest` bytes: something is wrong; stopped it.
        case tooLarge(largest: Int)
        /// Its output had not ended within the time; stopped it.
        case unfinished(seconds: Double)
        /// It closed its output but had not exited within the time; stopped it.
        case stayed(seconds: Double)
        /// It exited, not well (its wait status).
        case failed(status: Int32)

        public var description: String {
            switch self {
            case .cannotStart(let error) where error.operation == "spawn": "cannot start it (\(error.reason))"
            case .cannotStart(let error): error.description
            case .tooLarge(let largest):
                largest >= 1 << 20 ? "its answer passed \(largest >> 20) MiB; stopped it" : "its answer passed \(largest) bytes; stopped it"
            case .unfinished(let seconds): "no complete answer within \(Self.said(seconds)); stopped it"
            case .stayed(let seconds): "it closed its output but did not exit within \(Self.said(seconds)); stopped it"
            case .failed(let status):
                status & 0x7f != 0 ? "it was killed by signal \(status & 0x7f)" : "it failed with exit status \((status >> 8) & 0xff)"
            }
        }

        private static func said(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
        }
    }

    /// Runs `arguments` (see `start`) and returns its standard output once it has ended and the
    /// child has exited well, waiting `timeout` seconds at most for both. When the caller's host
    /// reaps its own children, the output decides.
    public static func run(_ arguments: [String], name: String? = nil, timeout: Double,
                           largest: Int = 1 << 20) -> Result<[UInt8], RunFailure> {
        let child: ChildProcess
        switch start(arguments, name: name) {
        case .failure(let error): return .failure(.cannotStart(error))
        case .success(let started): child = started
        }
        defer { child.output.close() }
        let deadline = monotonicSeconds() + timeout
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ended = false
        reading: while output.count <= largest {
            let left = Int32(max(0, (deadline - monotonicSeconds()) * 1000))
            guard case .success(true) = child.output.waitReadable(milliseconds: left) else { break }
            switch buffer.withUnsafeMutableBytes({ child.output.read(into: $0) }) {
            case .success(let count) where count > 0: output += buffer[..<count]
            case .success:
                ended = true
                break reading
            case .failure:
                break reading
            }
        }
        guard ended else {
            kill(child.pid)
            return .failure(output.count > largest ? .tooLarge(largest: largest) : .unfinished(seconds: timeout))
        }
        let exit = reap(child.pid, until: deadline)
        switch exit {
        case .running:
            kill(child.pid)
            return .failure(.stayed(seconds: timeout))
        case .exited(let status) where !exit.succeeded:
            return .failure(.failed(status: status))
        default:
            return .success(output)
        }
    }
}
