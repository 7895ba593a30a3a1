import FetchBench
import FetchCore
/// The report's comparison charts.
enum Charts {
    /// A chart of rescued opens (y) against energy (x) scaled to `reports`, its axes drawn.
    struct EnergyPlot {
        var svg: SVG
        let x: (Double) -> Double
        let y: (Double) -> Double
        let top: Double, right: Double, bottom: Double

        init(_ reports: [ReplayResult], height: Double, right: Double, bottom: Double) {
            svg = SVG(width: 640, height: height)
            let (left, top) = (70.0, 20.0)
            let xt = SVG.ticks(upTo: max(1, reports.map { Double($0.total.energyMicroJ) / 1e6 }.max() ?? 1))
            let yt = SVG.ticks(upTo: max(1, reports.map { Double($0.total.rescuedOpens) }.max() ?? 1))
            let x = { (v: Double) in left + v / xt.last! * (right - left) }
            let y = { (v: Double) in bottom - v / yt.last! * (bottom - top) }
            (self.x, self.y, self.top, self.right, self.bottom) = (x, y, top, right, bottom)
            axes(&svg, xt, yt, x, y, left, right, top, bottom, xLabel: "energy (J)", yLabel: "rescued opens")
        }

        /// One policy as a labelled point.
        mutating func point(_ r: ReplayResult, color: String, radius: Double) {
            let energy = Double(r.total.energyMicroJ) / 1e6, rescued = Double(r.total.rescuedOpens)
            svg.circle(x(energy), y(rescued), radius, fill: color,
                       title: "\(r.policy): \(r.total.rescuedOpens) rescued, \(ResultText.fixed(energy, 1)) J")
            let nearEdge = x(energy) > right - 90
            svg.text(x(energy) + (nearEdge ? -9 : 9), y(rescued) + 4, r.policy, anchor: nearEdge ? "end" : "start", fill: color)
        }
    }

    /// rescuedOpens (y) against energy (x), one labelled point per policy.
    static func rescuedAgainstEnergy(_ reports: [ReplayResult]) -> String {
        var plot = EnergyPlot(reports, height: 360, right: 610, bottom: 310)
        for (i, r) in reports.enumerated() { plot.point(r, color: SVG.palette[i % SVG.palette.count], radius: 6) }
        return plot.svg.svg
    }

    /// The frontiers: per family a line through its points (rescued opens against energy), named
    /// in a legend, the policies without a knob as labelled points, the oracle as a ringed point, and a dashed
    /// line at the oracle's energy where the frontiers are read.
    static func frontiers(_ frontiers: [Frontier], _ reports: [ReplayResult]) -> String {
        var plot = EnergyPlot(reports, height: 380, right: 600, bottom: 320)
        let (x, y, top, bottom) = (plot.x, plot.y, plot.top, plot.bottom)
        if let o = frontiers.first?.oracle {
            for k in 0..<30 {
                let (a, b) = (top + Double(k) * 10, top + Double(k) * 10 + 5)
                if a < bottom { plot.svg.line(x(o.energyJoules), a, x(o.energyJoules), min(b, bottom), "#999") }
            }
        }
        // The legend's labels end inside the chart's right margin, however long the longest name.
        let longest = Double(frontiers.map(\.family.count).max() ?? 0)
        let label = min(plot.right - 86, plot.right + 36 - 6.2 * longest)
        for (i, f) in frontiers.enumerated() {
            let color = SVG.palette[i % SVG.palette.count]
            plot.svg.polyline([(x(0), y(0))] + f.points.map { (x($0.energyJoules), y(Double($0.rescuedOpens))) }, color)
            for p in f.points {
                plot.svg.circle(x(p.energyJoules), y(Double(p.rescuedOpens)), 3.5, fill: color,
                                title: "\(p.policy): \(p.rescuedOpens) rescued, \(ResultText.fixed(p.energyJoules, 1)) J")
            }
            // A legend in the top right corner, where no curve goes (they bend over well before
            // the widest point's energy): labels at the curves' ends overlap once five families end close.
            let row = top + 6 + Double(i) * 16
            plot.svg.line(label - 26, row, label - 6, row, color, width: 2)
            plot.svg.text(label, row + 4, f.family, fill: color)
            if let at = f.rescuedAtOracleEnergy, let o = f.oracle {
                plot.svg.circle(x(o.energyJoules), y(at), 5, fill: "none", stroke: color,
                                title: "\(f.family) at the oracle's energy: \(ResultText.fixed(at, 1)) rescued")
            }
        }
        let single = reports.filter { Frontier.family(of: $0.policy) == nil }
        for (k, r) in single.enumerated() {
            let oracle = r.policy == "oracle"
            plot.point(r, color: oracle ? "#000" : SVG.palette[(frontiers.count + k) % SVG.palette.count], radius: oracle ? 7 : 5)
        }
        return plot.svg.svg
    }

    /// freshRate per policy, as horizontal bars.
    static func freshRate(_ reports: [ReplayResult]) -> String {
        var s = SVG(width: 640, height: Double(reports.count) * 28 + 30)
        for (i, r) in reports.enumerated() {
            let y = 10 + Double(i) * 28
            s.text(110, y + 15, r.policy, anchor: "end")
            s.rect(120, y, r.freshRate * 440, 20, SVG.palette[i % SVG.palette.count], title: "\(r.policy): \(ResultText.fixed(r.freshRate * 100, 1))% fresh")
            s.text(125 + r.freshRate * 440, y + 15, "\(ResultText.fixed(r.freshRate * 100, 1))%")
        }
        return s.svg
    }

    /// Each day's energy as a share of the day's budget (all users), one line per policy.
    static func dailySpend(_ reports: [ReplayResult]) -> String {
        var s = SVG(width: 640, height: 340)
        let (left, right, top, bottom) = (70.0, 500.0, 20.0, 290.0)
        let dates = Array(Set(reports.flatMap { $0.perDay.map(\.date) })).sorted()
        func share(_ r: ReplayResult, _ d: ReplayResult.DayRow) -> Double {
            Double(d.tally.energyMicroJ) / max(1, r.energyBudgetMicroJ(of: d)) * 100
        }
        let peak = reports.flatMap { r in r.perDay.map { share(r, $0) } }.max() ?? 100
        let yt = SVG.ticks(upTo: max(100, peak)), xt = [0.0, Double(max(1, dates.count - 1))]
        let x = { (i: Double) in left + i / xt[1] * (right - left) }
        let y = { (v: Double) in bottom - v / yt.last! * (bottom - top) }
        axes(&s, [], yt, x, y, left, right, top, bottom, xLabel: "", yLabel: "% of daily energy budget")
        if let first = dates.first, let last = dates.last {
            s.text(left, bottom + 16, first, anchor: "start")
            s.text(right, bottom + 16, last, anchor: "end")
        }
        for (i, r) in reports.enumerated() {
            let color = SVG.palette[i % SVG.palette.count]
            let points = r.perDay.compactMap { d in dates.firstIndex(of: d.date).map { (x(Double($0)), y(share(r, d))) } }
            if points.count > 1 { s.polyline(points, color) } else if let p = points.first { s.circle(p.0, p.1, 3, fill: color) }
            s.rect(515, top + Double(i) * 18, 12, 12, color)
            s.text(533, top + Double(i) * 18 + 10, r.policy)
        }
        return s.svg
    }

    static func axes(_ s: inout SVG, _ xt: [Double], _ yt: [Double], _ x: (Double) -> Double, _ y: (Double) -> Double,
                     _ left: Double, _ right: Double, _ top: Double, _ bottom: Double, xLabel: String, yLabel: String) {
        s.line(left, bottom, right, bottom, "#444")
        s.line(left, top, left, bottom, "#444")
        for v in yt {
            s.line(left, y(v), right, y(v), "#e5e5e5")
            s.text(left - 6, y(v) + 4, ResultText.fixed(v, v < 10 && v != v.rounded() ? 1 : 0), anchor: "end", size: 10)
        }
        for v in xt {
            s.line(x(v), bottom, x(v), bottom + 4, "#444")
            s.text(x(v), bottom + 16, ResultText.fixed(v, v < 10 && v != v.rounded() ? 1 : 0), anchor: "middle", size: 10)
        }
        if !xLabel.isEmpty { s.text((left + right) / 2, bottom + 34, xLabel, anchor: "middle") }
        s.text(18, (top + bottom) / 2, yLabel, anchor: "middle", vertical: true)
    }
}
