/// A server's content updates for one user and app: a seeded Poisson process.
///
/// Its stream depends only on the run's seed, the user and app names and the user's first
/// event, never on what a policy does, so every policy faces the same updates. A copy can be
/// advanced to look ahead without disturbing the original.
public struct UpdateProcess: Sendable {
    private var rng: SplitMix64
    private let mean: Double
    /// The latest update at or before the time advanced to, or `Int64.min`.
    public private(set) var last: Int64 = .min
    /// The next update.
    public private(set) var next: Int64

    public init(seed: UInt64, userHash: UInt64, appHash: UInt64, origin: Int64, meanGap: Int64) {
        rng = SplitMix64(seed: seed, userHash, appHash, 0x75_70_64)
        mean = Double(meanGap)
        next = origin
        next = origin + gap()
    }

    private mutating func gap() -> Int64 { max(1, Int64(rng.exponential(mean: mean).rounded())) }

    /// Steps over the next update and returns its time.
    public mutating func step() -> Int64 {
        last = next
        next += gap()
        return last
    }

    /// Advances past every update at or before `t`; returns the latest one.
    @discardableResult
    public mutating func advance(to t: Int64) -> Int64 {
        while next <= t { _ = step() }
        return last
    }
}
