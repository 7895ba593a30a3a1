/// A longer background task an app registers (maintenance, uploads): how much work it has,
/// how long the system grants it, and when it may run.
public struct TaskProfile: Hashable, Sendable {
    /// The work a task needs, log-normal with this median and 95th percentile.
    public var workMedian: Int64
    public var workP95: Int64
    /// Run time granted in all; a task still working then is expired, and its app penalized
    /// like a terminated fetch.
    public var limit: Int64
    public var needsCharging: Bool
    public var needsNetwork: Bool

    public init(workMedian: Int64, workP95: Int64, limit: Int64 = 600 * Millis.second, needsCharging: Bool = false,
                needsNetwork: Bool = false) {
        self.workMedian = workMedian
        self.workP95 = workP95
        self.limit = limit
        self.needsCharging = needsCharging
        self.needsNetwork = needsNetwork
    }
}
