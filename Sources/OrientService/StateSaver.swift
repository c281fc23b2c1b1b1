import CEventLoop
import Glibc
import OrientCore
import OrientSystem

/// Writes state.toml on a thread of its own, so that a save (an fsync on a slow disk) never
/// delays a rotation on the compositor's thread. Only the latest state is written: saves asked
/// for while one is running collapse into one, and so do those asked for within `settleMs` of
/// the first: the turn that asks for a save is still being drawn then, and on a machine with few
/// cores the writing thread would take the CPU from the compositor's first frame of it. Failures come back to the event loop through a
/// pipe and are logged there (a compositor's log handler need not be thread-safe).
public final class StateSaver: @unchecked Sendable {
    private let file: StateFile
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var pending: PersistentState?
    private var stopping = false
    private var failures: [String] = []

    private var thread = pthread_t()
    private var running = false
    /// Written by the thread after a failure; read on the event loop.
    private var failurePipe: (read: Int32, write: Int32) = (-1, -1)
    private var failureSource: LoopSource?

    public init(file: StateFile, loop: OpaquePointer?) {
        self.file = file
        pthread_mutex_init(mutex, nil)
        var monotonic = pthread_condattr_t()
        pthread_condattr_init(&monotonic)
        pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC)
        pthread_cond_init(wake, &monotonic)
        pthread_condattr_destroy(&monotonic)
        var fds: [Int32] = [-1, -1]
        if glue_pipe_cloexec(&fds) == 0 {
            _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
            _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
            failurePipe = (fds[0], fds[1])
            failureSource = LoopSource.readable(fds[0], on: loop) { [unowned self] _ in logFailures() }
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        running = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<StateSaver>.fromOpaque(context).takeUnretainedValue().run()
            return nil
        }, context) == 0
        if !running { Log.error("cannot start the thread that saves the state; saving on the compositor's thread") }
    }

    /// Queues `state` to be written; returns at once.
    public func save(_ state: PersistentState) {
        guard running else {
            if case .failure(let why) = file.save(state) { Log.error("cannot save the state: \(why)") }
            return
        }
        pthread_mutex_lock(mutex)
        pending = state
        pthread_cond_signal(wake)
        pthread_mutex_unlock(mutex)
    }

    /// Writes what is still pending, stops the thread and waits for it (at destroy).
    public func finish() {
        if running {
            pthread_mutex_lock(mutex)
            stopping = true
            pthread_cond_signal(wake)
            pthread_mutex_unlock(mutex)
            pthread_join(thread, nil)
            running = false
        }
        logFailures()
        failureSource?.remove()
        failureSource = nil
        if failurePipe.read >= 0 { close(failurePipe.read); close(failurePipe.write) }
        failurePipe = (-1, -1)
    }

    deinit {
        finish()
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        wake.deallocate()
        mutex.deallocate()
    }

    /// How long a save waits for others (and for the frame of the turn that asked for it).
    static let settleMs = 100

    private func run() {
        while true {
            pthread_mutex_lock(mutex)
            while pending == nil, !stopping { pthread_cond_wait(wake, mutex) }
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            deadline.tv_nsec += Self.settleMs * 1_000_000
            deadline.tv_sec += deadline.tv_nsec / 1_000_000_000
            deadline.tv_nsec %= 1_000_000_000
            while !stopping, pthread_cond_timedwait(wake, mutex, &deadline) != ETIMEDOUT {}
            let state = pending
            pending = nil
            let stop = stopping
            pthread_mutex_unlock(mutex)
            if let state, case .failure(let why) = file.save(state) {
                pthread_mutex_lock(mutex)
                failures.append("cannot save the state: \(why)")
                pthread_mutex_unlock(mutex)
                var byte: UInt8 = 1
                _ = write(failurePipe.write, &byte, 1)
            }
            if stop, state == nil { return }
        }
    }

    /// On the event loop: logs what the thread could not save.
    private func logFailures() {
        var drain = [UInt8](repeating: 0, count: 64)
        while failurePipe.read >= 0, drain.withUnsafeMutableBytes({ read(failurePipe.read, $0.baseAddress, $0.count) }) > 0 {}
        pthread_mutex_lock(mutex)
        let lines = failures
        failures = []
        pthread_mutex_unlock(mutex)
        lines.forEach(Log.error)
    }
}
