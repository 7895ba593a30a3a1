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
        let duration = Self.logNormal(median: p.durationMedian, sigma: sigma, rng: &rng)
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

    /// The draw of a fetch of one app of one user starting at `start`: the one home of its
    /// stream's key, so that the oracle foresees exactly what the engine will draw.
    static func at(_ start: Int64, seed: UInt64, userHash: UInt64, appHash: UInt64, profile: FetchProfile, sigma: Double,
                   hasNewData: Bool, deadline: Int64 = Millis.deadline) -> FetchDraw {
        var rng = SplitMix64(seed: seed, userHash, appHash, UInt64(bitPattern: start))
        return FetchDraw(profile: profile, sigma: sigma, hasNewData: hasNewData, rng: &rng, deadline: deadline)
    }

    /// The sigma of a log-normal with this median and 95th percentile (0 when they are equal):
    /// the 95th percentile of a standard normal is 1.6448536.
    static func sigma(median: Int64, p95: Int64) -> Double {
        p95 > median ? log(Double(p95) / Double(median)) / 1.644_853_6 : 0
    }

    /// A log-normal draw of milliseconds around `median`, at least 1 and at most
    /// ``InputBounds/maxDuration``: a wide profile can draw beyond `Int64`, so the draw is held
    /// in range before it is converted.
    static func logNormal(median: Int64, sigma: Double, rng: inout SplitMix64) -> Int64 {
        let drawn = Double(median) * exp(sigma * rng.normal())
        guard drawn < Double(InputBounds.maxDuration) else { return InputBounds.maxDuration }
        return max(1, Int64(drawn.rounded()))
    }
}
