import CEventLoop
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
    public static func start(_ arguments: [String]) -> Result<ChildProcess, SystemError> {
        var fds: [Int32] = [-1, -1]
        // Close-on-exec from the start: a copy of the write end held by any other program would
        // keep the output from ever ending (the child gets its own copy as fd 1).
        guard glue_pipe_cloexec(&fds) == 0 else { return .failure(SystemError(operation: "pipe", errno: errno)) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(writeEnd) }
        switch spawn(arguments, input: nil, output: writeEnd) {
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
    /// EPIPE instead of raising SIGPIPE, which would end the compositor.
    public static func startConnected(_ arguments: [String]) -> Result<(pid: pid_t, socket: FileDescriptor), SystemError> {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            return .failure(SystemError(operation: "socketpair", errno: errno))
        }
        let (ours, theirs) = (fds[0], fds[1])
        defer { close(theirs) }
        switch spawn(arguments, input: theirs, output: theirs) {
        case .success(let pid):
            return .success((pid, FileDescriptor(rawValue: ours)))
        case .failure(let error):
            close(ours)
            return .failure(error)
        }
    }

    /// posix_spawnp with `output` as fd 1, `input` (else /dev/null) as fd 0, no other
    /// descriptor of the caller's, and every signal as a new program has it.
    private static func spawn(_ arguments: [String], input: Int32?, output: Int32) -> Result<pid_t, SystemError> {
        guard let program = arguments.first else { return .failure(SystemError(operation: "posix_spawnp", errno: EINVAL)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        _ = glue_spawn_close_from(&actions, 3)
        // No signal blocked or ignored as in the compositor (its event loop blocks the signals it
        // watches through a signalfd): a child that lives all session must die of SIGPIPE and
        // SIGTERM as any program does.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        guard spawned == 0 else { return .failure(SystemError(operation: "posix_spawnp", errno: spawned)) }
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
