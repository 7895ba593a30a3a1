#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one fetch turns out to be: how long it runs, what it reports, what it moves.
struct FetchDraw {
    var runMs: Int64
    var result: FetchResult
    var bytes: Int64

    /// Draws a fetch from the app's profile. The stream is keyed by user, app and start time,
    /// so the same fetch at the same moment has the same outcome under every policy.
    /// `deadline` is 30 s for a fetch, about 10 s for a location wake.
    init(profile p: FetchProfile, sigma: Double, hasNewData: Bool, rng: inout SplitMix64, deadline: Int64 = Millis.deadline) {
        let duration = max(1, Int64((Double(p.durationMedian) * exp(sigma * rng.normal())).rounded()))
        let failed = rng.chance(p.failureRate)
        let payload = hasNewData ? p.bytes : p.noDataBytes
        if duration > deadline {
            runMs = deadline
            result = .terminated
            bytes = Int64(Double(payload) * Double(deadline) / Double(duration))
        } else if failed {
            runMs = duration
            result = .failed
            bytes = p.noDataBytes
        } else {
            runMs = duration
            result = hasNewData ? .newData : .noData
            bytes = payload
        }
    }
}
