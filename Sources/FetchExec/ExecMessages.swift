import FetchCore

/// The JSON lines of the `exec:` protocol (docs/policies.md), written by hand: one is sent per
/// event and per decision point, and an encoder's reflection would cost more than the policy.
enum ExecMessages {
    struct Answer: Decodable {
        var fetch: [String]?
        var wakeAt: Int64?
    }

    struct AnswerError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func event(_ e: UsageEvent, user: String, app: String) -> String {
        var j = JSONLine(capacity: 160)
        j.raw("{\"type\":\"event\",\"user\":"); j.string(user)
        j.raw(",\"t\":"); j.int(e.time.millis)
        j.raw(",\"offsetMinutes\":"); j.int(e.offsetMinutes)
        j.raw(",\"event\":"); j.string(e.kind.logName)
        j.raw(",\"app\":"); j.string(app)
        j.raw(",\"value\":"); j.json(value(e))
        j.raw("}")
        return j.text
    }

    static func value(_ e: UsageEvent) -> String {
        switch e.kind {
        case .battery: "\(e.value)"
        case .network: "\"\((Network(rawValue: e.value) ?? .none).logName)\""
        case .lowPower: e.value != 0 ? "\"on\"" : "\"off\""
        case .push: e.value == PushKind.silent.rawValue ? "\"silent\"" : "\"alert\""
        default: "null"
        }
    }

    static func decide(_ point: DecisionPoint, view: UserView, user: String, apps names: NameTable) -> String {
        var j = JSONLine(capacity: 320 + 256 * view.apps.count)
        j.raw("{\"type\":\"decide\",\"user\":"); j.string(user)
        j.raw(",\"t\":"); j.int(view.now.millis)
        j.raw(",\"offsetMinutes\":"); j.int(view.offsetMinutes)
        switch point {
        case .tick: j.raw(",\"point\":\"tick\"")
        case .timer: j.raw(",\"point\":\"timer\"")
        case .wake(let k): j.raw(",\"point\":\"wake\",\"wake\":"); j.string(k.logName)
        case .open(let app): j.raw(",\"point\":\"open\",\"app\":"); j.string(names[app])
        case .contentUpdate(let app): j.raw(",\"point\":\"update\",\"app\":"); j.string(names[app])
        }
        let c = view.context
        j.raw(",\"context\":{\"battery\":"); j.int(c.batteryLevel)
        j.raw(",\"charging\":"); j.bool(c.charging)
        j.raw(",\"network\":"); j.string(c.network.logName)
        j.raw(",\"lowPower\":"); j.bool(c.lowPower)
        j.raw(",\"screenOn\":"); if let on = c.screenOn { j.bool(on) } else { j.raw("null") }
        j.raw("},\"budgets\":{\"energyLeftJoules\":")
        j.json(joules(view.energyBudget - view.energyUsedToday))
        j.raw(",\"cellularLeftBytes\":"); j.int(view.cellularBudget - view.cellularUsedToday)
        j.raw(",\"dayEnd\":"); j.int(view.dayEnd)
        // What the process's own fetches spent today, for pacing apart from those pushes start.
        j.raw(",\"ownEnergyUsedJoules\":"); j.json(joules(view.policyEnergyToday))
        j.raw(",\"ownCellularUsedBytes\":"); j.int(view.policyCellularToday)
        j.raw("},\"apps\":[")
        for (i, a) in view.apps.enumerated() {
            if i > 0 { j.raw(",") }
            j.raw("{\"app\":"); j.string(names[a.id])
            j.raw(",\"interval\":"); j.string(a.settings.interval.description)
            j.raw(",\"inFlight\":"); j.bool(a.inFlight)
            j.raw(",\"lastFetch\":"); j.time(a.lastFetchStart)
            j.raw(",\"lastRefresh\":"); j.time(a.refreshedAt)
            j.raw(",\"lastOpen\":"); j.time(a.lastOpen)
            j.raw(",\"opens\":"); j.int(a.opens)
            j.raw(",\"fetches\":"); j.int(a.fetches)
            j.raw(",\"newData\":"); j.int(a.newData)
            j.raw(",\"noData\":"); j.int(a.noData)
            j.raw(",\"failed\":"); j.int(a.failed)
            j.raw(",\"terminated\":"); j.int(a.terminated)
            j.raw("}")
        }
        j.raw("]}")
        return j.text
    }

    static func joules(_ microJ: Int64) -> String { "\(Double(microJ) / 1_000_000)" }
}
