import CSystem
import Glibc

/// An environment variable's value (nil when unset).
public func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Sets an environment variable for this process and the programs it starts from now on.
public func setEnvironmentValue(_ name: String, _ value: String) {
    setenv(name, value, 1)
}

/// The name the kernel gives this process (its executable's, at most 15 bytes: /proc/self/comm).
public var processName: String {
    nameOfProcess(getpid()) ?? ""
}

/// The name the kernel gives another process (nil when it is gone or cannot be read).
public func nameOfProcess(_ pid: Int32) -> String? {
    readSmallFile("/proc/\(pid)/comm").map { String($0.prefix { $0 != "\n" }) }
}

/// This process's id.
public var processID: Int32 { getpid() }

/// The fields of /proc/PID/stat after the process's name (the 3rd on: state, parent, ...); nil
/// when it is gone.
private func statFields(_ pid: Int32) -> [Substring]? {
    guard let stat = readSmallFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ")
}

/// A process's state letter ('R', 'S', 'D', 'T' stopped, 't' stopped by a debugger, 'Z'...);
/// nil when it is gone.
public func stateOfProcess(_ pid: Int32) -> Character? {
    statFields(pid)?.first?.first
}

/// When a process started, in clock ticks since boot: with its id, it names one process for good
/// (an id alone may be another's later). nil when it is gone.
public func startTimeOfProcess(_ pid: Int32) -> String? {
    statFields(pid).flatMap { $0.count > 19 ? String($0[19]) : nil }
}

/// The process's working directory (nil if it cannot be known).

public func currentDirectory() -> String? {
    guard let cwd = getcwd(nil, 0) else { return nil }
    defer { free(cwd) }
    return String(cString: cwd)
}

/// The file the code of this process's Wayland glue was loaded from: the plugin's library in a
/// compositor, the program itself elsewhere (nil if it cannot be known).
public func loadedFromPath() -> String? {
    glue_library_path().map { String(cString: $0) }
}

/// Makes this process run `arguments` instead (execvp: a bare name is searched on `$PATH`),
/// with `name` as its argv[0] when given (a program that is several by name). Returns only when
/// that failed, with why.
public func becomeProgram(_ arguments: [String], name: String? = nil) -> SystemError {
    guard let program = arguments.first else { return SystemError(operation: "exec", errno: EINVAL) }
    var argv = ([name ?? program] + arguments.dropFirst()).map { strdup($0) } + [nil]
    execvp(program, &argv)
    let error = SystemError(operation: "exec \(program)", errno: errno)
    argv.forEach { free($0) }
    return error
}

/// Ends this process with `status` (a program's own end; never in a plugin).
public func exitProcess(_ status: Int32) -> Never {
    exit(status)
}

/// Whether this process acts as root (its effective user), as a file only root may write needs.
public var actsAsRoot: Bool { geteuid() == 0 }
