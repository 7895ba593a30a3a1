/// The radio's tail: after any activity it stays awake on its network for a while, and a
/// fetch starting within that shares the wake instead of paying for its own.
struct Radio {
    private(set) var until: Int64 = .min
    private(set) var network: Network = .wifi

    /// Whether a fetch on `network` at `t` shares a wake under way.
    func isAwake(at t: Int64, on network: Network) -> Bool { t <= until && self.network == network }

    /// The radio is active on `network` through `end` (a wake, or a fetch that runs to then).
    /// On another network than the last one the old wake does not count.
    mutating func stayAwake(on network: Network, through end: Int64) {
        if self.network != network { until = .min }
        self.network = network
        until = max(until, end)
    }

    /// The device changed network: no wake is under way on the new one.
    mutating func networkChanged() { until = .min }
}
