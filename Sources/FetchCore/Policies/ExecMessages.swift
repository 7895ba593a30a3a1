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
        "{\"type\":\"event\",\"user\":\(string(user)),\"t\":\(e.time.millis),\"offsetMinutes\":\(e.offsetMinutes),\"event\":\"\(e.kind.logName)\",\"app\":\(string(app)),\"value\":\(value(e))}"
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
        let (kind, detail): (String, String) = switch point {
        case .tick: ("tick", "")
        case .timer: ("timer", "")
        case .wake(let k): ("wake", ",\"wake\":\"\(k.logName)\"")
        case .open(let app): ("open", ",\"app\":\(string(names[app]))")
        case .contentUpdate(let app): ("update", ",\"app\":\(string(names[app]))")
        }
        let c = view.context
        var out = "{\"type\":\"decide\",\"user\":\(string(user)),\"t\":\(view.now.millis),\"offsetMinutes\":\(view.offsetMinutes),\"point\":\"\(kind)\"\(detail)"
        out += ",\"context\":{\"battery\":\(c.batteryLevel),\"charging\":\(c.charging),\"network\":\"\(c.network.logName)\",\"lowPower\":\(c.lowPower),\"screenOn\":\(c.screenOn.map { "\($0)" } ?? "null")}"
        out += ",\"budgets\":{\"energyLeftJoules\":\(joules(view.energyBudget - view.energyUsedToday)),\"cellularLeftBytes\":\(view.cellularBudget - view.cellularUsedToday),\"dayEnd\":\(view.dayEnd)}"
        out += ",\"apps\":["
        for (i, a) in view.apps.enumerated() {
            if i > 0 { out += "," }
            out += "{\"app\":\(string(names[a.id])),\"interval\":\"\(a.settings.interval.description)\",\"inFlight\":\(a.inFlight)"
            out += ",\"lastFetch\":\(time(a.lastFetchStart)),\"lastRefresh\":\(time(a.refreshedAt)),\"lastOpen\":\(time(a.lastOpen))"
            out += ",\"opens\":\(a.opens),\"fetches\":\(a.fetches),\"newData\":\(a.newData),\"noData\":\(a.noData),\"failed\":\(a.failed),\"terminated\":\(a.terminated)}"
        }
        return out + "]}"
    }

    static func time(_ t: Int64) -> String { t == .min ? "null" : "\(t)" }

    static func joules(_ microJ: Int64) -> String { "\(Double(microJ) / 1_000_000)" }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += "\\u00" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
