import CSystem
import Glibc

/// A process id.
public typealias ProcessID = pid_t

/// A program started with a pipe as its standard output, /dev/null as its input (or a socket as
/// both), and none of the caller's other descriptors (a compositor's DRM fds and sockets),
/// whether or not they are close-on-exec.
public struct ChildProcess: Sendable {
    public let pid: pid_t
    /// The read end of its standard output (close-on-exec; the caller closes it).
    public let output: FileDescriptor

    /// Starts `arguments` (a bare name is searched on `$PATH`).
    /// `name`, when given, is its argv[0] in place of its path (see `startConnected`).
    public static func start(_ arguments: [String], name: String? = nil) -> Result<ChildProcess, SystemError> {
        var fds: [Int32] = [-1, -1]
        // Close-on-exec from the start: a copy of the write end held by any other program would
        // keep the output from ever ending (the child gets its own copy as fd 1).
        guard glue_pipe_cloexec(&fds) == 0 else { return .failure(SystemError(operation: "pipe", errno: errno)) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(writeEnd) }
        switch spawn(arguments, name: name, input: nil, output: writeEnd) {
        case .success(let pid):
            return .success(ChildProcess(pid: pid, output: FileDescriptor(rawValue: readEnd)))
        case .failure(let error):
            close(readEnd)
            return .failure(error)
        }
    }

    /// Starts `arguments` with one end of a socket pair as its standard input and output;
    /// returns its pid and the other end (close-on-exec; the caller closes it). A socket, not
    /// two pipes: writing to it with `FileDescriptor.send` after the child has gone fails with
    /// EPIPE instead of raising SIGPIPE, which would end the compositor. `name`, when given, is
    /// the program's argv[0] in place of its path (a program that is several by name).
    public static func startConnected(_ arguments: [String], name: String? = nil) -> Result<(pid: pid_t, socket: FileDescriptor), SystemError> {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            return .failure(SystemError(operation: "socketpair", errno: errno))
        }
        let (ours, theirs) = (fds[0], fds[1])
        defer { close(theirs) }
        switch spawn(arguments, name: name, input: theirs, output: theirs) {
        case .success(let pid):
            return .success((pid, FileDescriptor(rawValue: ours)))
        case .failure(let error):
            close(ours)
            return .failure(error)
        }
    }

    /// The signal a child gets when the thread that started it ends (the compositor's, even killed
    /// with SIGKILL): a program of ours that lives all session never outlives its host.
    public static let parentDeathSignal = SIGKILL

    /// Starts the program with `output` as fd 1, `input` (else /dev/null) as fd 0, no other
    /// descriptor of the caller's, every signal as a new program has it (the compositor's loop
    /// blocks the ones it watches: a child that lives all session must die of SIGPIPE and SIGTERM
    /// as any program does), and `parentDeathSignal` should its starter end first.
    private static func spawn(_ arguments: [String], name: String? = nil, input: Int32?, output: Int32) -> Result<pid_t, SystemError> {
        guard let program = arguments.first else { return .failure(SystemError(operation: "spawn", errno: EINVAL)) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([name ?? program] + arguments.dropFirst()).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let pid = glue_spawn(program, argv, input ?? -1, output, parentDeathSignal)
        guard pid > 0 else { return .failure(SystemError(operation: "spawn", errno: -pid)) }
        return .success(pid)
    }

    /// What waiting for a child found.
    public enum Exit: Sendable, Equatable {
        /// Still running.
        case running
        /// Exited, with its wait status.
        case exited(status: Int32)
        /// Not ours to wait for (ECHILD: a host that reaps its own children took it).
        case reapedElsewhere

        /// Whether it ended well: exit status 0, or reaped by someone else (then its output decides).
        public var succeeded: Bool {
            switch self {
            case .running: false
            case .exited(let status): status & 0x7f == 0 && (status >> 8) & 0xff == 0
            case .reapedElsewhere: true
            }
        }
    }

    /// Collects the child if it has exited, without waiting.
    public static func reap(_ pid: pid_t) -> Exit {
        var status: Int32 = 0
        switch waitpid(pid, &status, WNOHANG) {
        case 0: return .running
        case pid: return .exited(status: status)
        default: return .reapedElsewhere
        }
    }

    /// Waits for the child until `deadline` (monotonic seconds) in short naps: never longer,
    /// so that a child that stays cannot hold the caller.
    public static func reap(_ pid: pid_t, until deadline: Double) -> Exit {
        var exit = reap(pid)
        while exit == .running, monotonicSeconds() < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
            exit = reap(pid)
        }
        return exit
    }

    /// Asks the child to end (SIGTERM) without waiting for it.
    public static func terminate(_ pid: pid_t) {
        _ = Glibc.kill(pid, SIGTERM)
    }

    /// Kills the child without waiting for it (`reap` collects it later).
    public static func stop(_ pid: pid_t) {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Kills the child and waits for it (at once: SIGKILL cannot be refused).
    public static func kill(_ pid: pid_t) {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)   // -1 at once (ECHILD) if the host reaps its own
    }
}
