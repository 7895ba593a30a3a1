/// What one background fetch of an app looks like: how long it takes, what it downloads,
/// how often it fails.
///
/// Durations are log-normal with the given median and 95th percentile; a draw above the
/// 30-second deadline is a terminated fetch.
public struct FetchProfile: Hashable, Sendable {
    public var durationMedian: Int64
    public var durationP95: Int64
    /// Bytes downloaded by a fetch that finds new data.
    public var bytes: Int64
    /// Bytes exchanged by a fetch that finds nothing new, or fails.
    public var noDataBytes: Int64
    /// Probability that a fetch fails (0...1).
    public var failureRate: Double
    /// A large payload: a fetch that finds new data hands this many bytes to a discretionary
    /// background transfer (Wi-Fi only, no 30-second limit); 0 for none.
    public var transferBytes: Int64 = 0
    /// Whether that transfer also waits for the charger.
    public var transferNeedsCharging = false

    public init(durationMedian: Int64, durationP95: Int64, bytes: Int64, noDataBytes: Int64, failureRate: Double) {
        self.durationMedian = durationMedian
        self.durationP95 = durationP95
        self.bytes = bytes
        self.noDataBytes = noDataBytes
        self.failureRate = failureRate
    }
}

/// The result a fetch reports, or `terminated` when it hit the completion deadline.
public enum FetchResult: String, Sendable, CaseIterable {
    case newData, noData, failed, terminated

    /// Whether the fetch refreshed the app's content.
    public var refreshes: Bool { self == .newData || self == .noData }
}
