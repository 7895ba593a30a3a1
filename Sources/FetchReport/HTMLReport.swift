import FetchBench
import FetchCore
import FetchResults
/// `bench --report`: one self-contained HTML page (inline CSS and SVG; no scripts, fonts or
/// anything else from the network) with the comparison table, rescuedOpens and freshRate
/// against energy, the daily budget spend, and one user's day.
public enum HTMLReport {
    public static func render(_ reports: [ReplayResult], frontiers: [Frontier] = [], timeline: Timeline?, apps: AppReport? = nil,
                              source: String) -> String {
        let first = reports.first
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>FetchScheduler report</title>
        <style>
        body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1000px; }
        table { border-collapse: collapse; font-size: 12px; }
        th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: right; }
        th:first-child, td:first-child { text-align: left; }
        h2 { margin-top: 32px; } .note { color: #555; font-size: 13px; }
        </style></head><body>
        <h1>FetchScheduler: policies compared</h1>
        <p class="note">\(SVG.escape(source)) · \(first?.events ?? 0) events · \(first?.perUser.count ?? 0) users · \(first?.perDay.count ?? 0) days · seed \(first?.seed ?? 0) · budgets \(ResultText.fixed(Double(first?.scenario.energyBudgetMicroJ ?? 0) / 1e6, 0)) J and \(ResultText.fixed(Double(first?.scenario.cellularBudgetBytes ?? 0) / 1e6, 0)) MB cellular per device-day</p>
        <h2>Comparison</h2>
        \(table(reports))
        <h2>Rescued opens against energy</h2>
        <p class="note">Up and to the left is better: opens made fresh by a background fetch, for the energy spent.</p>
        \(Charts.rescuedAgainstEnergy(reports))
        \(frontierSection(frontiers, reports))
        <h2>Fresh opens</h2>
        \(Charts.freshRate(reports))
        <h2>Daily energy spend</h2>
        <p class="note">Each local day's energy, all users, as a share of their budgets (100% = every device spent its whole budget).</p>
        \(Charts.dailySpend(reports))
        \(appSection(apps))

        """
        if let t = timeline {
            html += """
            <h2>A day of \(SVG.escape(t.user)): \(LocalTime.dateText(day: t.day))</h2>
            <p class="note">Network (blue Wi-Fi, orange cellular, grey none), charging, screen on, wake opportunities; per policy the opens (green fresh, red stale, ringed when a background fetch made them fresh) and the fetches (green newData, blue noData, orange failed, red terminated). Hover for details. The policies drawn are those the run named (<code>--policies</code>), the ones you compare; the points a frontier sweeps are in its chart above, not here.</p>
            \(TimelineChart.render(t, policies: t.policies))

            """
        }
        return html + "</body></html>\n"
    }

    /// The frontiers' chart and table, when `bench --frontier` ran.
    static func frontierSection(_ frontiers: [Frontier], _ reports: [ReplayResult]) -> String {
        guard !frontiers.isEmpty else { return "" }
        var out = """
        <h2>Frontiers: rescued opens at equal energy</h2>
        <p class="note">Each family's knob swept (a price for adaptive, an interval for fixed): a policy is compared with another at the same energy, read off its curve. The dashed line is the oracle's energy; a ring marks where each curve crosses it.</p>
        \(Charts.frontiers(frontiers, reports))
        <table><tr>
        """
        out += ResultText.frontierColumns.map { "<th>\(SVG.escape($0))</th>" }.joined() + "</tr>\n"
        for f in frontiers { out += "<tr>" + ResultText.cells(f).map { "<td>\(SVG.escape($0))</td>" }.joined() + "</tr>\n" }
        return out + "</table>"
    }

    /// Per app and policy, what an app developer asks of background refresh (`bench --per app`).
    static func appSection(_ apps: AppReport?) -> String {
        guard let apps else { return "" }
        var out = """
        <h2>Per app</h2>
        <p class="note">For each app and policy: fetches per day across users (10th, 50th, 90th percentile), days with
        the app and no fetch of it, the wait from a user's first open to the first fetch, the gaps between fetches, and the
        opens found fresh and rescued by a fetch.</p>
        <table><tr>
        """
        out += AppReport.columns.map { "<th>\(SVG.escape($0))</th>" }.joined() + "</tr>\n"
        for r in apps.rows { out += "<tr>" + AppReport.cells(r).map { "<td>\(SVG.escape($0))</td>" }.joined() + "</tr>\n" }
        return out + "</table>"
    }

    static func table(_ reports: [ReplayResult]) -> String {
        var out = "<table><tr>" + ResultText.columns.map { "<th>\(SVG.escape($0))</th>" }.joined() + "</tr>\n"
        for r in reports { out += "<tr>" + ResultText.cells(r).map { "<td>\(SVG.escape($0))</td>" }.joined() + "</tr>\n" }
        return out + "</table>"
    }
}
