import FetchCore
/// One user's day: network, charging, screen and wake lanes from the log, then per policy a
/// lane of opens (green fresh, red stale, ringed when rescued by a fetch) and one of fetches
/// (coloured by result, as wide as they ran).
enum TimelineChart {
    static let resultColors: [FetchResult: String] = [.newData: "#2ca02c", .noData: "#1f77b4", .failed: "#ff7f0e", .terminated: "#d62728"]

    static func render(_ t: Timeline, policies: [String]) -> String {
        let (left, right) = (130.0, 940.0)
        let start = LocalTime.start(ofDay: t.day, offsetMinutes: t.offsetMinutes)
        let x = { (ms: Int64) in left + Double(ms - start) / Double(Millis.day) * (right - left) }
        var s = SVG(width: 960, height: 150 + Double(policies.count) * 50)
        for h in stride(from: 0, through: 24, by: 3) {
            let px = x(start + Int64(h) * Millis.hour)
            s.line(px, 20, px, s.height - 10, "#eeeeee")
            s.text(px, 14, "\(h < 10 ? "0" : "")\(h):00", anchor: "middle", size: 10)
        }
        contextLanes(&s, t, x, start)
        for (i, policy) in policies.enumerated() {
            let y = 130 + Double(i) * 50
            s.text(left - 8, y + 4, "\(policy) opens", anchor: "end", size: 10)
            s.text(left - 8, y + 24, "fetches", anchor: "end", size: 10)
            for f in t.fetches[policy] ?? [] {
                s.rect(x(f.time), y + 15, max(1.5, x(f.time + f.durationMs) - x(f.time)), 12, resultColors[f.result]!,
                       title: "\(f.app) \(LocalTime.clockText(f.time, offsetMinutes: t.offsetMinutes)) \(f.result.rawValue)")
            }
            for o in t.opens[policy] ?? [] {
                let title = "\(o.app) \(LocalTime.clockText(o.time, offsetMinutes: t.offsetMinutes)) \(o.fresh ? (o.rescued ? "fresh (rescued)" : "fresh") : "stale")"
                s.circle(x(o.time), y, 4, fill: o.fresh ? "#2ca02c" : "#d62728", stroke: o.rescued ? "#000" : "none", title: title)
            }
        }
        return s.svg
    }

    private static func contextLanes(_ s: inout SVG, _ t: Timeline, _ x: (Int64) -> Double, _ start: Int64) {
        let lanes = ["network", "charging", "screen", "wakes"]
        for (i, name) in lanes.enumerated() { s.text(122, 34 + Double(i) * 20, name, anchor: "end", size: 10) }
        var context = t.startContext
        var from = start
        func close(_ until: Int64) {
            let color = context.network == .wifi ? "#9ecae1" : context.network == .cellular ? "#fdae6b" : "#bdbdbd"
            s.rect(x(from), 24, x(until) - x(from), 12, color, title: "network \(context.network.logName)")
            if context.charging { s.rect(x(from), 44, x(until) - x(from), 12, "#74c476", title: "charging") }
            if context.screenOn == true { s.rect(x(from), 64, x(until) - x(from), 12, "#636363", title: "screen on") }
            from = until
        }
        for e in t.events {
            if e.kind.isWakeOpportunity {
                s.line(x(e.time.millis), 84, x(e.time.millis), 96, "#756bb1", width: 1.5)
            }
            guard e.kind != .open else { continue }
            close(e.time.millis)
            context.apply(e)
        }
        close(start + Millis.day)
    }
}
