/// The raw counts of a replay for one user, one day, or a whole run.
///
/// All integers (energy in microjoules), so tallies merge to the same totals in any order.
public struct Tally: Equatable, Sendable, Codable {
    public var opens = 0
    public var freshOpens = 0
    public var rescuedOpens = 0
    public var fetches = 0
    public var newData = 0
    public var noData = 0
    public var failed = 0
    public var terminated = 0
    public var energyMicroJ: Int64 = 0
    public var cellularBytes: Int64 = 0
    public var wifiBytes: Int64 = 0
    /// Refused requests, indexed by ``Refusal`` raw value.
    public var refused = SIMD8<Int64>()
    /// Hard-rule violations found by the engine's own audit, indexed by ``HardRule`` raw value.
    public var violations = SIMD8<Int64>()
    public var staleness = StalenessHistogram()
    /// Pushes (docs/background-paths.md): received by kind, and what became of
    /// the silent ones. silent = deliveredNow + held; held = deliveredLate + undelivered.
    public var pushes = PushTally()
    /// Location wakes and background transfers.
    public var background = BackgroundTally()
    /// Stale opens by the last chance the policy had to rescue them.
    public var missed = MissedTally()

    public init() {}

    public var isEmpty: Bool { opens == 0 && fetches == 0 && refused == .zero }

    public mutating func merge(_ o: Tally) {
        opens += o.opens
        freshOpens += o.freshOpens
        rescuedOpens += o.rescuedOpens
        fetches += o.fetches
        newData += o.newData
        noData += o.noData
        failed += o.failed
        terminated += o.terminated
        energyMicroJ += o.energyMicroJ
        cellularBytes += o.cellularBytes
        wifiBytes += o.wifiBytes
        refused &+= o.refused
        violations &+= o.violations
        staleness.merge(o.staleness)
        pushes.merge(o.pushes)
        background.merge(o.background)
        missed.merge(o.missed)
    }

    /// Counts a fetch that ran: its energy, its bytes by network, and its result. Totals
    /// saturate, since reported fetches are bounded one by one, not in number.
    mutating func countFetch(energyMicroJ e: Int64, bytes: Int64, network: Network, result: FetchResult) {
        energyMicroJ = energyMicroJ.saturatingAdd(e)
        if network == .cellular {
            cellularBytes = cellularBytes.saturatingAdd(bytes)
        } else {
            wifiBytes = wifiBytes.saturatingAdd(bytes)
        }
        fetches += 1
        count(result)
    }

    mutating func count(_ result: FetchResult) {
        switch result {
        case .newData: newData += 1
        case .noData: noData += 1
        case .failed: failed += 1
        case .terminated: terminated += 1
        }
    }

    public func refusedCount(_ r: Refusal) -> Int64 { refused[r.rawValue] }
    public func violationCount(_ r: HardRule) -> Int64 { violations[r.rawValue] }

    /// Counts a refused request.
    ///
    /// Adds one to the lane in place: `refused[i] += 1` copies the vector out, writes the lane and
    /// reads the whole vector back, which stalls store forwarding on every refusal (`perf
    /// annotate` of `replay --policy fixed:15m`).
    mutating func countRefusal(_ r: Refusal) { Self.increment(&refused, at: r.rawValue) }

    /// Counts a hard-rule violation the engine's audit found (as ``countRefusal(_:)``).
    mutating func countViolation(_ rule: HardRule) { Self.increment(&violations, at: rule.rawValue) }

    private static func increment(_ counts: inout SIMD8<Int64>, at lane: Int) {
        precondition((0..<8).contains(lane))
        withUnsafeMutableBytes(of: &counts) { $0.withMemoryRebound(to: Int64.self) { $0[lane] += 1 } }
    }
}
