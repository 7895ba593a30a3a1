/// Collects the rows of a plan's run, every app's fetches and refusals in time order, from
/// which each app's planned fetches are read (``entries(of:through:chance:)``).
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used at every event
/// and every supposed wake of a plan, and no method keeps an access open across a call that
/// could start another.
final class PlanTrace: TraceSink {
    @exclusivity(unchecked) var rows: [TraceRow] = []

    init() {
        rows.reserveCapacity(64)  // a day's fetches and refusals, most days: grown once, not by doubling from one
    }
    /// The user whose rows count; none (-1) until the run starts, so that the projection up to
    /// the plan's moment records nothing.
    @exclusivity(unchecked) var user: Int32 = -1
    /// The energy spent on the local day the run started in, and that day.
    @exclusivity(unchecked) var energy: Int64 = 0
    @exclusivity(unchecked) var day: Int64 = .min

    func record(_ row: TraceRow) {
        guard user >= 0, row.user == user else { return }
        rows.append(row)
    }

    /// The fetches of `app` the run started by `end`, each with the energy spent that day before
    /// it and the chance it was planned on, of an open within a span after it (`chance` at its
    /// start and offset: the policy's own, or its habits' smoothed time of week over a tick, as
    /// `adaptive-v1` weighs a tick).
    func entries(of app: Int32, through end: Int64, chance: (Int64, Int) -> (chance: Double, within: Int64)) -> [FetchPlan.Entry] {
        var planned: [FetchPlan.Entry] = []
        var day = self.day, energy = self.energy
        for row in rows {
            guard row.start <= end else { break }  // in time order: the engine starts fetches as it goes
            let d = LocalTime.day(row.start, offsetMinutes: Int(row.offsetMinutes))
            if d != day { day = d; energy = 0 }
            if row.app == app && row.refusal == nil {
                let (p, window) = chance(row.start, Int(row.offsetMinutes))
                planned.append(FetchPlan.Entry(time: row.start, offsetMinutes: Int(row.offsetMinutes), network: row.network,
                                               energyMicroJ: row.energyMicroJ, bytes: row.bytes,
                                               windowStart: row.start + UsageModel.prefetchLead,
                                               windowEnd: row.start + window + UsageModel.prefetchLead,
                                               probability: p, energyUsedBefore: energy))
            }
            energy += row.energyMicroJ
        }
        return planned
    }
}
