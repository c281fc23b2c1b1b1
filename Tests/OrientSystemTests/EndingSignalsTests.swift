import Glibc
import OrientSystem
import Testing

nonisolated(unsafe) private var hangupsSeen = 0

/// A Ctrl-C (or a closed terminal) while a file is replaced takes effect once it is replaced.
@Suite struct EndingSignalsTests {
    @Test func aSignalThatComesWhileHeldTakesEffectAfterward() {
        // SIGHUP, which nothing else in the tests uses, sent to this thread alone; the runner's
        // threads may block it, so it is let through here first (and the mask put back).
        let before = signal(SIGHUP) { _ in hangupsSeen += 1 }
        var hangup = sigset_t(), mask = sigset_t()
        sigemptyset(&hangup)
        sigaddset(&hangup, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &hangup, &mask)
        defer {
            pthread_sigmask(SIG_SETMASK, &mask, nil)
            signal(SIGHUP, before)
        }
        hangupsSeen = 0
        let seenInside = withEndingSignalsHeld { () -> Int in
            pthread_kill(pthread_self(), SIGHUP)
            return hangupsSeen
        }
        #expect(seenInside == 0, "the signal came while held")
        #expect(hangupsSeen == 1, "the signal held never came")
    }
}
