#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

extension Scenario {
    /// Reads a scenario file's JSON. Every field is optional and falls back to `base`
    /// (the defaults of docs/formats.md); unknown fields and invalid values are errors naming the field.
    public static func parse(json bytes: [UInt8], base: Scenario = .default) throws(ScenarioError) -> Scenario {
        let root: JSONValue
        guard JSONValue.nestsWithinBounds(bytes) else {
            throw ScenarioError(field: "", problem: "arrays or objects nested deeper than \(JSONValue.maxNesting) levels")
        }
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ScenarioError(field: "", problem: "not valid JSON (\(error))")
        }
        var s = base
        var top = try ObjectReader(root, path: "")
        try readEnergy(&top, into: &s, base: base)
        if var engine = try top.object("engine") {
            if let tick = try engine.duration("tick") {
                guard tick >= Millis.second, tick <= Millis.day else { throw ScenarioError(field: "engine.tick", problem: "must be from 1s to 1d") }
                s.tick = tick
            }
            try engine.finish()
        }
        if var transfers = try top.object("transfers") {
            if let rate = try transfers.whole("wifiBytesPerSecond", atMost: InputBounds.maxBytes) {
                guard rate > 0 else { throw ScenarioError(field: "transfers.wifiBytesPerSecond", problem: "must be more than 0") }
                s.transferBytesPerSecond = rate
            }
            try transfers.finish()
        }
        if var pushes = try top.object("pushes") {
            if let n = try pushes.whole("silentPerHour", atMost: 3_600) {
                s.silentPushesPerHour = Int(n)
            }
            try pushes.finish()
        }
        if var adaptive = try top.object("adaptive") {
            if let v = try adaptive.number("minRescuesPerJoule", above: 0, atMost: InputBounds.maxRescuesPerJoule) { s.minRescuesPerJoule = v }
            try adaptive.finish()
        }
        if var apps = try top.object("apps") {
            if var d = try apps.object("default") {
                s.defaultApp = try appSettings(&d, base: s.defaultApp)
            }
            for name in apps.remainingKeys {
                guard var a = try apps.object(name) else { continue }
                s.apps[name] = try appSettings(&a, base: s.defaultApp)
            }
        }
        try top.finish()
        return s
    }

    /// The battery, the energy model and the budgets: the energy budget is a share of the
    /// battery unless given in joules.
    private static func readEnergy(_ top: inout ObjectReader, into s: inout Scenario, base: Scenario) throws(ScenarioError) {
        var capacity: Double? = nil
        var percent: Double? = nil
        if var battery = try top.object("battery") {
            capacity = try battery.number("capacityWh", above: 0, atMost: 1_000)
            try battery.finish()
        }
        if var energy = try top.object("energy") {
            s.energy.processingWatts = try energy.number("processingWatts", atLeast: 0, atMost: 100) ?? s.energy.processingWatts
            s.energy.wifi = try radio(&energy, "wifi", base: s.energy.wifi)
            s.energy.cellular = try radio(&energy, "cellular", base: s.energy.cellular)
            try energy.finish()
        }
        var joules: Double? = nil
        if var budgets = try top.object("budgets") {
            percent = try budgets.number("energyPercentPerDay", above: 0, atMost: 100)
            joules = try budgets.number("energyJoulesPerDay", above: 0, atMost: 10_000_000)
            if let joules {
                if percent != nil {
                    throw ScenarioError(field: "budgets.energyJoulesPerDay", problem: "give energyJoulesPerDay or energyPercentPerDay, not both")
                }
                s.energyBudgetMicroJ = Int64((joules * 1_000_000).rounded())
            }
            if let bytes = try budgets.whole("cellularBytesPerDay", atMost: 1_000_000_000_000) { s.cellularBudgetBytes = bytes }
            try budgets.finish()
        }
        if joules == nil && (capacity != nil || percent != nil) {
            let share = percent ?? Double(base.energyBudgetMicroJ) / (base.batteryWh * 3_600_000_000) * 100
            s.batteryWh = capacity ?? base.batteryWh
            s.energyBudgetMicroJ = Int64((s.batteryWh * 3600 * share / 100 * 1_000_000).rounded())
        } else if let capacity {
            s.batteryWh = capacity
        }
    }

    private static func radio(_ r: inout ObjectReader, _ key: String, base: RadioModel) throws(ScenarioError) -> RadioModel {
        guard var o = try r.object(key) else { return base }
        var m = base
        m.wakeJoules = try o.number("wakeJoules", atLeast: 0, atMost: 1_000) ?? m.wakeJoules
        m.joulesPerMB = try o.number("joulesPerMB", atLeast: 0, atMost: 1_000) ?? m.joulesPerMB
        m.tail = try o.duration("tail") ?? m.tail
        try o.finish()
        return m
    }

    private static func appSettings(_ o: inout ObjectReader, base: AppSettings) throws(ScenarioError) -> AppSettings {
        var a = base
        if let text = try o.string("interval") {
            guard let v = FetchInterval(text: text) else {
                throw o.error("interval", "expected never, minimum or custom:<duration> up to 366d such as custom:2h, got '\(InputBounds.printable(text))'")
            }
            a.interval = v
        }
        if let text = try o.string("content") {
            guard let v = ContentModel(text: text) else {
                throw o.error("content", "expected window:<duration> or updates:<duration> (a mean gap of at least 1m) such as window:30m, got '\(InputBounds.printable(text))'")
            }
            a.content = v
        }
        a.monitorsLocation = try o.bool("monitorsLocation") ?? a.monitorsLocation
        if var t = try o.object("task") {
            let median = try t.duration("workMedian") ?? a.task?.workMedian ?? 60 * Millis.second
            var task = TaskProfile(workMedian: median, workP95: try t.duration("workP95") ?? max(median, a.task?.workP95 ?? median))
            task.limit = try t.duration("limit") ?? a.task?.limit ?? 600 * Millis.second
            task.needsCharging = try t.bool("needsCharging") ?? a.task?.needsCharging ?? false
            task.needsNetwork = try t.bool("needsNetwork") ?? a.task?.needsNetwork ?? false
            guard task.workMedian > 0 else { throw t.error("workMedian", "must be more than 0") }
            guard task.workP95 >= task.workMedian else { throw t.error("workP95", "must be at least workMedian") }
            guard task.limit > 0 else { throw t.error("limit", "must be more than 0") }
            try t.finish()
            a.task = task
        }
        if var p = try o.object("profile") {
            a.profile.durationMedian = try p.duration("durationMedian") ?? a.profile.durationMedian
            a.profile.durationP95 = try p.duration("durationP95") ?? a.profile.durationP95
            a.profile.bytes = try p.whole("bytes", atMost: InputBounds.maxBytes) ?? a.profile.bytes
            a.profile.noDataBytes = try p.whole("noDataBytes", atMost: InputBounds.maxBytes) ?? a.profile.noDataBytes
            a.profile.transferBytes = try p.whole("transferBytes", atMost: InputBounds.maxBytes) ?? a.profile.transferBytes
            a.profile.transferNeedsCharging = try p.bool("transferNeedsCharging") ?? a.profile.transferNeedsCharging
            a.profile.failureRate = try p.number("failureRate", atLeast: 0, atMost: 1) ?? a.profile.failureRate
            guard a.profile.durationMedian > 0 else { throw p.error("durationMedian", "must be more than 0") }
            guard a.profile.durationP95 >= a.profile.durationMedian else {
                throw p.error("durationP95", "must be at least durationMedian")
            }
            try p.finish()
        }
        try o.finish()
        return a
    }
}

/// Reads one JSON object field by field, remembering which keys were used.
struct ObjectReader {
    private var fields: [String: JSONValue]
    private var used: Set<String> = []
    let path: String

    init(_ value: JSONValue, path: String) throws(ScenarioError) {
        guard case .object(let fields) = value else {
            throw ScenarioError(field: path, problem: "expected an object, got \(value.typeName)")
        }
        self.fields = fields
        self.path = path
    }

    func error(_ key: String, _ problem: String) -> ScenarioError {
        ScenarioError(field: InputBounds.printable(path.isEmpty ? key : "\(path).\(key)", limit: 300), problem: problem)
    }

    var remainingKeys: [String] { fields.keys.filter { !used.contains($0) }.sorted() }

    private mutating func take(_ key: String) -> JSONValue? {
        used.insert(key)
        return fields[key]
    }

    mutating func object(_ key: String) throws(ScenarioError) -> ObjectReader? {
        guard let v = take(key) else { return nil }
        return try ObjectReader(v, path: path.isEmpty ? key : "\(path).\(key)")
    }

    mutating func string(_ key: String) throws(ScenarioError) -> String? {
        guard let v = take(key) else { return nil }
        guard case .string(let s) = v else { throw error(key, "expected a string, got \(v.typeName)") }
        return s
    }

    /// A number from `low` to `high`: every scenario number has a documented range, so no
    /// product of them can overflow (data/scenarios/README.md lists the ranges).
    mutating func number(_ key: String, atLeast low: Double, atMost high: Double) throws(ScenarioError) -> Double? {
        guard let v = take(key) else { return nil }
        guard case .number(let n) = v, n.isFinite else { throw error(key, "expected a number, got \(v.typeName)") }
        guard n >= low, n <= high else { throw error(key, "must be from \(Self.text(low)) to \(Self.text(high)), got \(n)") }
        return n
    }

    mutating func number(_ key: String, above low: Double, atMost high: Double) throws(ScenarioError) -> Double? {
        guard let n = try number(key, atLeast: low, atMost: high) else { return nil }
        guard n > low else { throw error(key, "must be more than \(Self.text(low)), got \(n)") }
        return n
    }

    mutating func whole(_ key: String, atMost high: Int64) throws(ScenarioError) -> Int64? {
        guard let n = try number(key, atLeast: 0, atMost: Double(high)) else { return nil }
        guard n == n.rounded() else { throw error(key, "expected a whole number, got \(n)") }
        return Int64(n)
    }

    static func text(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }

    mutating func bool(_ key: String) throws(ScenarioError) -> Bool? {
        guard let v = take(key) else { return nil }
        guard case .bool(let b) = v else { throw error(key, "expected true or false, got \(v.typeName)") }
        return b
    }

    mutating func duration(_ key: String) throws(ScenarioError) -> Int64? {
        guard let text = try string(key) else { return nil }
        guard let ms = DurationText.parse(text) else {
            throw error(key, "expected a duration up to 366d such as 500ms, 30s, 15m or 2h, got '\(InputBounds.printable(text))'")
        }
        return ms
    }

    func finish() throws(ScenarioError) {
        if let unknown = remainingKeys.first { throw error(unknown, "unknown field") }
    }
}
