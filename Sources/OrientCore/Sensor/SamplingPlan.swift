/// How often to sample: fast while the device moves, slowly while it is still.
///
/// A still device (no motion, no acceleration, nothing pending for `idleAfter` seconds)
/// is read at `idleHz`, which keeps an idle session under ten wakeups a second. The first
/// reading that shows motion switches to the configured rate, long before a turn ends,
/// so decisions are as fast as at a constant rate.
public struct SamplingPlan: Sendable, Hashable {
    public var activeHz: Double
    public var idleHz: Double
    public var idleAfter: Double

    public init(activeHz: Double, idleHz: Double = 8, idleAfter: Double = 0.5) {
        self.activeHz = max(activeHz, 0.1)
        self.idleHz = min(max(idleHz, 0.1), self.activeHz)
        self.idleAfter = idleAfter
    }

    /// The rate for a detector that was last unsettled `quietFor` seconds ago.
    public func rate(quietFor: Double) -> Double {
        quietFor >= idleAfter ? idleHz : activeHz
    }
}
