/// What the engine needs of an app's settings at every request, computed once per app: the
/// worst-case cost it reserves against the budgets, and the spread of the fetch duration.
struct FetchCosts: Sendable {
    /// The most a fetch can move: its payload, new data or not.
    let worstBytes: Int64
    /// Worst-case energy (running to the deadline with `worstBytes`), in microjoules, by network
    /// and whether a wake is under way. Plain fields: arrays would add reference counting to
    /// every copy of the app's state.
    let worstWifi: Int64
    let worstWifiShared: Int64
    let worstCellular: Int64
    let worstCellularShared: Int64
    /// A typical fetch's energy (its median duration and its payload), in microjoules, by
    /// network and whether a wake is under way: what a policy weighs for the app at every
    /// decision (``UserView/fetchJoules(of:sharedWake:)``), computed once rather than rounded
    /// anew each time.
    let typicalWifi: Int64
    let typicalWifiShared: Int64
    let typicalCellular: Int64
    let typicalCellularShared: Int64
    /// The log-normal duration's sigma, from the median and the 95th percentile.
    let sigma: Double

    init(settings: AppSettings, energy: EnergyModel) {
        let p = settings.profile
        worstBytes = max(p.bytes, p.noDataBytes)
        let worst = { (n: Network, shared: Bool) in
            energy.fetchMicroJ(ms: Millis.deadline, bytes: max(p.bytes, p.noDataBytes), network: n, sharedWake: shared)
        }
        worstWifi = worst(.wifi, false)
        worstWifiShared = worst(.wifi, true)
        worstCellular = worst(.cellular, false)
        worstCellularShared = worst(.cellular, true)
        let typical = { (n: Network, shared: Bool) in
            energy.fetchMicroJ(ms: p.durationMedian, bytes: p.bytes, network: n, sharedWake: shared)
        }
        typicalWifi = typical(.wifi, false)
        typicalWifiShared = typical(.wifi, true)
        typicalCellular = typical(.cellular, false)
        typicalCellularShared = typical(.cellular, true)
        sigma = FetchDraw.sigma(median: p.durationMedian, p95: p.durationP95)
    }

    @inline(__always)
    func worst(network: Network, sharedWake: Bool) -> Int64 {
        network == .cellular ? (sharedWake ? worstCellularShared : worstCellular) : (sharedWake ? worstWifiShared : worstWifi)
    }

    @inline(__always)
    func typical(network: Network, sharedWake: Bool) -> Int64 {
        network == .cellular ? (sharedWake ? typicalCellularShared : typicalCellular) : (sharedWake ? typicalWifiShared : typicalWifi)
    }
}
