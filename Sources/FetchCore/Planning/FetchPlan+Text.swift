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

    /// One line per planned fetch.
    public var table: String {
        var out = "next fetches of \(app) for \(user) after \(LocalTime.isoText(at, offsetMinutes: offsetMinutes)) (\(DurationText.format(horizon)))\n"
        if let reason {
            out += "no timed fetch: \(reason)\n"
        } else {
            out += "time                           network  energy J  open window    probability  spent today J\n"
        }
        for e in entries {
            out += [LocalTime.isoText(e.time, offsetMinutes: e.offsetMinutes), ResultText.padText(e.network.logName, 7),
                    ResultText.padText(ResultText.fixed(Double(e.energyMicroJ) / 1e6, 2), 8),
                    "\(LocalTime.clockText(e.windowStart, offsetMinutes: e.offsetMinutes))–\(LocalTime.clockText(e.windowEnd, offsetMinutes: e.offsetMinutes))",
                    ResultText.padText(ResultText.fixed(e.probability, 2), 11),
                    "\(ResultText.fixed(Double(e.energyUsedBefore) / 1e6, 1)) / \(ResultText.fixed(Double(energyBudget) / 1e6, 0))"]
                .joined(separator: "  ") + "\n"
        }
        guard !triggers.isEmpty else { return out }
        out += "at wakes:\n"
        out += "wake                                   chance  likeliest    decided at  fetch  exp. rescues  cost J\n"
        for t in triggers {
            let clock = { (x: Int64) in LocalTime.clockText(x, offsetMinutes: t.offsetMinutes) }
            out += [t.kind.words + String(repeating: " ", count: max(0, 37 - t.kind.words.count)), ResultText.padText(ResultText.fixed(t.chance, 2), 6),
                    "\(clock(t.windowStart))–\(clock(t.windowEnd))", ResultText.padText(clock(t.time), 10),
                    ResultText.padText(t.fetch ? "yes" : t.refusal.map { "no (\($0.traceName))" } ?? "no", 5),
                    ResultText.padText(ResultText.fixed(t.expectedRescues, 2), 12),
                    ResultText.padText(ResultText.fixed(t.costJoules, 2), 6)].joined(separator: "  ") + "\n"
        }
        return out
    }

    /// A readable account of each planned fetch and why.
    public var explanation: String {
        var out = "\(user) has opened \(app) \(opens) time\(opens == 1 ? "" : "s") in the log so far; its fetch interval is \(interval).\n"
        if let reason {
            out += "No timed fetch is planned in the next \(DurationText.format(horizon)): \(reason).\n"
        } else {
            out += "Planned fetches in the next \(DurationText.format(horizon)):\n"
        }
        for e in entries {
            let day = LocalTime.day(e.time, offsetMinutes: e.offsetMinutes)
            let kind = LocalTime.weekday(ofDay: day) >= 5 ? "weekends" : "weekdays"
            let clock = { (t: Int64) in LocalTime.clockText(t, offsetMinutes: e.offsetMinutes) }
            out += "- \(Self.weekdayNames[LocalTime.weekday(ofDay: day)]) \(LocalTime.dateText(day: day)) \(clock(e.time)) on \(e.network == .cellular ? "cellular" : "Wi-Fi"), "
            out += "\(ResultText.fixed(Double(e.energyMicroJ) / 1e6, 1)) J: you open this app between \(clock(e.windowStart)) and \(clock(e.windowEnd)) "
            out += "on \(Int((e.probability * 100).rounded()))% of \(kind) (recent days count most; an open in the quarter-hour before counts half, and the sessions you start then a little), "
            out += "and its content would be stale by then. "
            out += "The device will have spent \(ResultText.fixed(Double(e.energyUsedBefore) / 1e6, 1)) J of its \(ResultText.fixed(Double(energyBudget) / 1e6, 0)) J day before it.\n"
        }
        guard !triggers.isEmpty else { return out }
        out += "At the wakes that may come in the next \(DurationText.format(horizon)) (decided at the moment by which half their chance has come, with no other events meanwhile):\n"
        for t in triggers {
            let clock = { (x: Int64) in LocalTime.clockText(x, offsetMinutes: t.offsetMinutes) }
            let soon = t.time - at <= 90 * Millis.minute
                ? "usually within \(DurationText.format((t.time - at + Millis.minute - 1) / Millis.minute * Millis.minute))" : "likeliest \(clock(t.windowStart))–\(clock(t.windowEnd))"
            out += "- \(t.kind.words) (\(soon), \(Int((t.chance * 100).rounded()))% in the next \(DurationText.format(horizon))): "
            out += t.fetch ? "fetch" : "no fetch"
            if let e = t.energyMicroJ { out += " (\(ResultText.fixed(Double(e) / 1e6, 1)) J)" }
            out += " — \(t.reason).\n"
        }
        return out
    }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
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

    /// The wake in words, for people.
    public var words: String {
        switch self {
        case .screenOn: "at your next unlock"
        case .plugged: "at your next plug-in"
        case .open(let after): "right after you open \(after)"
        case .push: "at a silent push from its server"
        }
    }
}
