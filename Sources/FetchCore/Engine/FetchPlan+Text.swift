extension FetchPlan: Encodable {
    enum Key: String, CodingKey {
        case user, app, at, horizon, interval, opens, reason, plan, energyBudgetJoules
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
    }

    /// One line per planned fetch.
    public var table: String {
        var out = "next fetches of \(app) for \(user) after \(LocalTime.isoText(at, offsetMinutes: offsetMinutes)) (\(DurationText.format(horizon)))\n"
        if let reason { return out + "none: \(reason)\n" }
        out += "time                           network  energy J  open window    probability  spent today J\n"
        for e in entries {
            out += [LocalTime.isoText(e.time, offsetMinutes: e.offsetMinutes), ReportText.padText(e.network.logName, 7),
                    ReportText.padText(ReportText.fixed(Double(e.energyMicroJ) / 1e6, 2), 8),
                    "\(LocalTime.clockText(e.windowStart, offsetMinutes: e.offsetMinutes))–\(LocalTime.clockText(e.windowEnd, offsetMinutes: e.offsetMinutes))",
                    ReportText.padText(ReportText.fixed(e.probability, 2), 11),
                    "\(ReportText.fixed(Double(e.energyUsedBefore) / 1e6, 1)) / \(ReportText.fixed(Double(energyBudget) / 1e6, 0))"]
                .joined(separator: "  ") + "\n"
        }
        return out
    }

    /// A readable account of each planned fetch and why.
    public var explanation: String {
        var out = "\(user) has opened \(app) \(opens) time\(opens == 1 ? "" : "s") in the log so far; its fetch interval is \(interval).\n"
        if let reason { return out + "No fetch is planned in the next \(DurationText.format(horizon)): \(reason).\n" }
        out += "Planned fetches in the next \(DurationText.format(horizon)):\n"
        for e in entries {
            let day = LocalTime.day(e.time, offsetMinutes: e.offsetMinutes)
            let kind = LocalTime.weekday(ofDay: day) >= 5 ? "weekends" : "weekdays"
            let clock = { (t: Int64) in LocalTime.clockText(t, offsetMinutes: e.offsetMinutes) }
            out += "- \(Self.weekdayNames[LocalTime.weekday(ofDay: day)]) \(LocalTime.dateText(day: day)) \(clock(e.time)) on \(e.network == .cellular ? "cellular" : "Wi-Fi"), "
            out += "\(ReportText.fixed(Double(e.energyMicroJ) / 1e6, 1)) J: you open this app between \(clock(e.windowStart)) and \(clock(e.windowEnd)) "
            out += "on \(Int((e.probability * 100).rounded()))% of \(kind) (recent days count most), and its content would be stale by then. "
            out += "The device will have spent \(ReportText.fixed(Double(e.energyUsedBefore) / 1e6, 1)) J of its \(ReportText.fixed(Double(energyBudget) / 1e6, 0)) J day before it.\n"
        }
        out += "Fetches at a screen_on or right after another app's open are decided then, and are not listed.\n"
        return out
    }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
}
