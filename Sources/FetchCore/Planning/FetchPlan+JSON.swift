extension FetchPlan: Encodable {
    enum Key: String, CodingKey {
        case user, app, at, horizon, interval, opens, reason, plan, triggers, energyBudgetJoules
    }

    enum TriggerKey: String, CodingKey {
        case kind, after, chance, window, time, fetch, refusedBy, expectedRescues, costJoules, energyJoules, bytes, network, reason
    }

    enum EntryKey: String, CodingKey {
        case time, network, energyJoules, bytes, openWindow, probability, energyUsedTodayJoules
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(user, forKey: .user)
        try c.encode(app, forKey: .app)
        try c.encode(LocalTime.isoText(at, offsetMinutes: offsetMinutes), forKey: .at)
        try c.encode(DurationText.format(horizon), forKey: .horizon)
        try c.encode(interval.description, forKey: .interval)
        try c.encode(opens, forKey: .opens)
        try c.encode(joules(energyBudget), forKey: .energyBudgetJoules)
        try c.encodeIfPresent(reason, forKey: .reason)
        var list = c.nestedUnkeyedContainer(forKey: .plan)
        for e in entries {
            var o = list.nestedContainer(keyedBy: EntryKey.self)
            try o.encode(LocalTime.isoText(e.time, offsetMinutes: e.offsetMinutes), forKey: .time)
            try o.encode(e.network.logName, forKey: .network)
            try o.encode(joules(e.energyMicroJ), forKey: .energyJoules)
            try o.encode(e.bytes, forKey: .bytes)
            try o.encode([LocalTime.isoText(e.windowStart, offsetMinutes: e.offsetMinutes),
                          LocalTime.isoText(e.windowEnd, offsetMinutes: e.offsetMinutes)], forKey: .openWindow)
            try o.encode(round(e.probability, 3), forKey: .probability)
            try o.encode(joules(e.energyUsedBefore), forKey: .energyUsedTodayJoules)
        }
        var triggerList = c.nestedUnkeyedContainer(forKey: .triggers)
        for t in triggers {
            var o = triggerList.nestedContainer(keyedBy: TriggerKey.self)
            let iso = { (x: Int64) in LocalTime.isoText(x, offsetMinutes: t.offsetMinutes) }
            try o.encode(t.kind.name, forKey: .kind)
            if case .open(let after) = t.kind { try o.encode(after, forKey: .after) }
            try o.encode(round(t.chance, 3), forKey: .chance)
            try o.encode([iso(t.windowStart), iso(t.windowEnd)], forKey: .window)
            try o.encode(iso(t.time), forKey: .time)
            try o.encode(t.fetch, forKey: .fetch)
            try o.encodeIfPresent(t.refusal?.traceName, forKey: .refusedBy)
            try o.encode(round(t.expectedRescues, 3), forKey: .expectedRescues)
            try o.encode(round(t.costJoules, 3), forKey: .costJoules)
            try o.encodeIfPresent(t.energyMicroJ.map(joules), forKey: .energyJoules)
            try o.encodeIfPresent(t.bytes, forKey: .bytes)
            try o.encode(t.network.logName, forKey: .network)
            try o.encode(t.reason, forKey: .reason)
        }
    }
}

extension FetchPlan.Trigger.Kind {
    /// The name in JSON.
    public var name: String {
        switch self {
        case .screenOn: "screen_on"
        case .plugged: "plugged"
        case .open: "open"
        case .push: "push"
        }
    }
}
