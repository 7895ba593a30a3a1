import FetchCore

/// A plan as people read it: `next`'s table and, with `--explain`, its account in words.
extension FetchPlan {
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
        // The widest wake's name and answer set their columns (an app's name has no bound here).
        let fetches = triggers.map { $0.fetch ? "yes" : $0.refusal.map { "no (\($0.traceName))" } ?? "no" }
        let width = max(37, triggers.map(\.kind.words.count).max() ?? 0), answer = max(5, fetches.map(\.count).max() ?? 0)
        let left = { (s: String, w: Int) in s + String(repeating: " ", count: max(0, w - s.count)) }
        out += left("wake", width) + "  chance  likeliest    decided at  " + ResultText.padText("fetch", answer)
            + "  exp. rescues  typical J  drawn J\n"
        for (t, fetch) in zip(triggers, fetches) {
            let clock = { (x: Int64) in LocalTime.clockText(x, offsetMinutes: t.offsetMinutes) }
            out += [left(t.kind.words, width), ResultText.padText(ResultText.fixed(t.chance, 2), 6),
                    "\(clock(t.windowStart))–\(clock(t.windowEnd))", ResultText.padText(clock(t.time), 10),
                    ResultText.padText(fetch, answer), ResultText.padText(ResultText.fixed(t.expectedRescues, 2), 12),
                    ResultText.padText(ResultText.fixed(t.costJoules, 2), 9),
                    ResultText.padText(t.energyMicroJ.map { ResultText.fixed(Double($0) / 1e6, 2) } ?? "-", 7)].joined(separator: "  ") + "\n"
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
            // Two energies: this wake's fetch as the engine draws it, and the rule's typical one in the reason.
            if let e = t.energyMicroJ {
                out += " (this wake's fetch, as the engine draws it, spends \(ResultText.fixed(Double(e) / 1e6, 1)) J)"
            }
            out += " — \(t.reason).\n"
        }
        return out
    }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
}

extension FetchPlan.Trigger.Kind {
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
