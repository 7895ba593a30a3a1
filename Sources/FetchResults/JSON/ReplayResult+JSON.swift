import FetchCore

extension ReplayResult: Encodable {
    /// A field's name, as docs/metrics.md gives it.
    package struct Key: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }
        package init(_ s: String) { stringValue = s }
        package init?(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }

    /// The totals sit at the top level under the metric names of docs/metrics.md; `perUser`
    /// and `perDay` hold the same metrics per user and per local day.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try encodeSummary(into: &c)
        var users = c.nestedUnkeyedContainer(forKey: Key("perUser"))
        if encoder.userInfo[Self.rowsLeftOut] as? Bool != true {
            for row in perUser {
                var u = users.nestedContainer(keyedBy: Key.self)
                try Self.encode(row, into: &u)
            }
        }
        var days = c.nestedUnkeyedContainer(forKey: Key("perDay"))
        for row in perDay {
            var d = days.nestedContainer(keyedBy: Key.self)
            try encode(row, into: &d)
        }
    }

    /// An encoder's option: `true` encodes `perUser` as an empty array, for a text whose rows
    /// are written apart (FetchResults' `ResultText.writeJSON`).
    package static let rowsLeftOut = CodingUserInfoKey(rawValue: "fetchsched.rowsLeftOut")!

    /// The policy's identity, its budgets and its totals: a JSON report's top level, a CSV row per policy.
    package func encodeSummary(into c: inout KeyedEncodingContainer<Key>) throws {
        try c.encode(policy, forKey: Key("policy"))
        try c.encode(seed, forKey: Key("seed"))
        try c.encode(events, forKey: Key("events"))
        try c.encode(perUser.count, forKey: Key("userCount"))
        try c.encode(perDay.count, forKey: Key("dayCount"))
        try c.encode(skipped.values.reduce(0, +), forKey: Key("skippedRows"))
        var budgets = c.nestedContainer(keyedBy: Key.self, forKey: Key("budgets"))
        try budgets.encode(joules(scenario.energyBudgetMicroJ), forKey: Key("energyJoulesPerDay"))
        try budgets.encode(scenario.cellularBudgetBytes, forKey: Key("cellularBytesPerDay"))
        try Self.encodeMetrics(total, into: &c)
    }

    package static func encode(_ row: UserRow, into c: inout KeyedEncodingContainer<Key>) throws {
        try c.encode(row.user, forKey: Key("user"))
        try c.encode(row.days, forKey: Key("days"))
        try encodeMetrics(row.tally, into: &c)
    }

    package func encode(_ row: DayRow, into c: inout KeyedEncodingContainer<Key>) throws {
        try c.encode(row.date, forKey: Key("date"))
        try c.encode(row.users, forKey: Key("users"))
        try c.encode(round(energyBudgetMicroJ(of: row) / 1_000_000, 3), forKey: Key("energyBudgetJoules"))
        try Self.encodeMetrics(row.tally, into: &c)
    }

    static func encodeMetrics(_ t: Tally, into c: inout KeyedEncodingContainer<Key>) throws {
        try c.encode(t.opens, forKey: Key("opens"))
        try c.encode(t.freshOpens, forKey: Key("freshOpens"))
        try c.encode(round(t.opens == 0 ? 0 : Double(t.freshOpens) / Double(t.opens), 4), forKey: Key("freshRate"))
        try c.encode(t.rescuedOpens, forKey: Key("rescuedOpens"))
        try c.encode(t.opens - t.freshOpens, forKey: Key("staleOpens"))
        var stale = c.nestedContainer(keyedBy: Key.self, forKey: Key("staleMinutes"))
        try stale.encode(t.staleness.quantile(0.5).map { round($0 / 60, 1) }, forKey: Key("median"))
        try stale.encode(t.staleness.quantile(0.9).map { round($0 / 60, 1) }, forKey: Key("p90"))
        var missed = c.nestedContainer(keyedBy: Key.self, forKey: Key("missedOpensByLastChance"))
        for chance in MissedTally.LastChance.allCases { try missed.encode(t.missed[chance], forKey: Key(chance.key)) }
        try c.encode(t.fetches, forKey: Key("fetches"))
        var results = c.nestedContainer(keyedBy: Key.self, forKey: Key("results"))
        try results.encode(t.newData, forKey: Key("newData"))
        try results.encode(t.noData, forKey: Key("noData"))
        try results.encode(t.failed, forKey: Key("failed"))
        try results.encode(t.terminated, forKey: Key("terminated"))
        let energy = joules(t.energyMicroJ)
        try c.encode(energy, forKey: Key("energyJoules"))
        try c.encode(t.cellularBytes, forKey: Key("cellularBytes"))
        try c.encode(t.wifiBytes, forKey: Key("wifiBytes"))
        try c.encode(round(t.fetches == 0 ? 0 : Double(t.rescuedOpens) / Double(t.fetches), 4), forKey: Key("rescuedPerFetch"))
        try c.encode(round(energy == 0 ? 0 : Double(t.rescuedOpens) / energy, 5), forKey: Key("rescuedPerJoule"))
        var violations = c.nestedContainer(keyedBy: Key.self, forKey: Key("violations"))
        for rule in HardRule.allCases { try violations.encode(t.violationCount(rule), forKey: Key(rule.name)) }
        var refused = c.nestedContainer(keyedBy: Key.self, forKey: Key("refused"))
        for r in Refusal.allCases { try refused.encode(t.refusedCount(r), forKey: Key(r.key)) }
        let p = t.pushes
        var pushes = c.nestedContainer(keyedBy: Key.self, forKey: Key("pushes"))
        for (key, value) in [("silent", p.silent), ("alert", p.alert), ("planned", p.planned), ("deliveredNow", p.deliveredNow), ("held", p.held),
                             ("deliveredLate", p.deliveredLate), ("undelivered", p.undelivered), ("fetches", p.fetches),
                             ("rescuedOpens", p.rescuedOpens)] {
            try pushes.encode(value, forKey: Key(key))
        }
        try pushes.encode(p.deliveredLate == 0 ? 0 : round(Double(p.delayMs) / Double(p.deliveredLate) / 60_000, 2),
                          forKey: Key("meanLateDelayMinutes"))
        let b = t.background
        var location = c.nestedContainer(keyedBy: Key.self, forKey: Key("locationWakes"))
        try location.encode(b.locationWakes, forKey: Key("wakes"))
        try location.encode(b.locationFetches, forKey: Key("fetches"))
        var transfers = c.nestedContainer(keyedBy: Key.self, forKey: Key("transfers"))
        for (key, value) in [("handedOver", b.transfers), ("completed", b.transfersCompleted), ("pending", b.transfersPending)] {
            try transfers.encode(value, forKey: Key(key))
        }
        try transfers.encode(b.transfersCompleted == 0 ? 0 : round(Double(b.transferDelayMs) / Double(b.transfersCompleted) / 60_000, 2),
                             forKey: Key("meanDelayMinutes"))
        try transfers.encode(b.transferBytes, forKey: Key("wifiBytes"))
        try transfers.encode(0, forKey: Key("cellularBytes"))
        var tasks = c.nestedContainer(keyedBy: Key.self, forKey: Key("tasks"))
        for (key, value) in [("registered", b.tasks), ("completed", b.tasksCompleted), ("expired", b.tasksExpired), ("pending", b.tasksPending)] {
            try tasks.encode(value, forKey: Key(key))
        }
        try tasks.encode(b.tasksCompleted == 0 ? 0 : round(Double(b.taskCompletionMs) / Double(b.tasksCompleted) / 60_000, 2),
                         forKey: Key("meanMinutesToCompletion"))
    }
}
