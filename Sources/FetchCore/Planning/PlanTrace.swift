/// Collects the planned fetches of one app, with the budget state before each.
final class PlanTrace: TraceSink {
    var rows: [TraceRow] = []
    var planned: [FetchPlan.Entry] = []
    var energy: Int64 = 0
    var day: Int64 = .min
    var user: Int32 = -1
    var app: Int32 = -1
    var model = UsageModel()
    var horizon: Int64 = 0

    func record(_ row: TraceRow) {
        guard user >= 0, row.user == user else { return }
        let d = LocalTime.day(row.start, offsetMinutes: Int(row.offsetMinutes))
        if d != day { day = d; energy = 0 }
        if row.app == app && row.refusal == nil {
            let p = model.openProbability(app, from: row.start, span: horizon, offsetMinutes: Int(row.offsetMinutes))
            planned.append(FetchPlan.Entry(time: row.start, offsetMinutes: Int(row.offsetMinutes), network: row.network,
                                           energyMicroJ: row.energyMicroJ, bytes: row.bytes,
                                           windowStart: row.start + UsageModel.prefetchLead,
                                           windowEnd: row.start + horizon + UsageModel.prefetchLead,
                                           probability: p, energyUsedBefore: energy))
        }
        energy += row.energyMicroJ
    }
}
