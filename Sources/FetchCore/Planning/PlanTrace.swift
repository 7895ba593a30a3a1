/// Collects the planned fetches of one app, with the budget state before each.
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used at every event
/// and every supposed wake of a plan, and no method keeps an access open across a call that
/// could start another.
final class PlanTrace: TraceSink {
    @exclusivity(unchecked) var rows: [TraceRow] = []
    @exclusivity(unchecked) var planned: [FetchPlan.Entry] = []
    @exclusivity(unchecked) var energy: Int64 = 0
    @exclusivity(unchecked) var day: Int64 = .min
    @exclusivity(unchecked) var user: Int32 = -1
    @exclusivity(unchecked) var app: Int32 = -1
    @exclusivity(unchecked) var model = UsageModel()
    @exclusivity(unchecked) var horizon: Int64 = 0

    func record(_ row: TraceRow) {
        guard user >= 0, row.user == user else { return }
        let d = LocalTime.day(row.start, offsetMinutes: Int(row.offsetMinutes))
        if d != day { day = d; energy = 0 }
        if row.app == app && row.refusal == nil {
            // Read as the adaptive policy weighs it: a fetch planned for an open that may come a
            // little later than on the days seen is explained by the chance it was planned on.
            let p = model.openProbability(app, from: row.start, span: horizon, offsetMinutes: Int(row.offsetMinutes), smoothed: true)
            planned.append(FetchPlan.Entry(time: row.start, offsetMinutes: Int(row.offsetMinutes), network: row.network,
                                           energyMicroJ: row.energyMicroJ, bytes: row.bytes,
                                           windowStart: row.start + UsageModel.prefetchLead,
                                           windowEnd: row.start + horizon + UsageModel.prefetchLead,
                                           probability: p, energyUsedBefore: energy))
        }
        energy += row.energyMicroJ
    }
}
