import Glibc

/// Monotonic seconds: the clock every timestamp of the plugin, the daemon and the sensor is on
/// (the host and the benchmarks read CLOCK_MONOTONIC too).
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// The same clock in milliseconds, the unit the transitions count in.
public func monotonicMilliseconds() -> Double { monotonicSeconds() * 1000 }

/// The CPU time this thread has used, in seconds (a system call: for measuring, not for pacing).
public func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}
