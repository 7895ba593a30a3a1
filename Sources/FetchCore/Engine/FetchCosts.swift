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
        sigma = FetchDraw.sigma(median: p.durationMedian, p95: p.durationP95)
    }

    @inline(__always)
    func worst(network: Network, sharedWake: Bool) -> Int64 {
        network == .cellular ? (sharedWake ? worstCellularShared : worstCellular) : (sharedWake ? worstWifiShared : worstWifi)
    }
}
