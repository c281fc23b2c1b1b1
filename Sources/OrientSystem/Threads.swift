import Glibc

/// A mutex with a condition variable on the monotonic clock: what a worker thread and its
/// owner share.
public final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var monotonic = pthread_condattr_t()
        pthread_condattr_init(&monotonic)
        pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &monotonic)
        pthread_condattr_destroy(&monotonic)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes a thread that waits (call it within `locked`).
    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Waits for a signal (within `locked`; the mutex is let go meanwhile).
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits for a signal until `deadline` (monotonic seconds; within `locked`): false once the
    /// deadline has passed.
    public func wait(until deadline: Double) -> Bool {
        let whole = deadline.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }
}

/// A thread of its own running one closure, to be joined.
public final class WorkerThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: () -> Void

    private init(_ body: @escaping () -> Void) {
        self.body = body
    }

    /// Starts `body` on a new thread; nil if the system would not start one.
    public static func start(_ body: @escaping () -> Void) -> WorkerThread? {
        let made = WorkerThread(body)
        let context = Unmanaged.passRetained(made).toOpaque()
        let started = pthread_create(&made.thread, nil, { context in
            guard let context else { return nil }
            let thread = Unmanaged<WorkerThread>.fromOpaque(context).takeRetainedValue()
            thread.body()
            return nil
        }, context) == 0
        if !started { Unmanaged<WorkerThread>.fromOpaque(context).release() }
        return started ? made : nil
    }

    /// Waits until the closure has returned.
    public func join() {
        pthread_join(thread, nil)
    }
}
