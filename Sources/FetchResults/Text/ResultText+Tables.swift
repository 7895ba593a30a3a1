#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

/// A replay's results as a readable table or a Markdown table: one row per policy, the stale
/// opens by their last chance, and the days.
extension ResultText {
    package static let columns = ["policy", "opens", "fresh %", "rescued", "stale p50 min", "fetches", "failed+term",
                          "energy J", "J/user-day", "cell MB", "rescued/fetch", "rescued/kJ", "violations", "refused"]

    /// Push columns, shown when some report has pushes: received, held over the rate limit,
    /// mean delay of the late ones, and opens rescued by push-woken fetches.
    static let pushColumns = ["pushes", "held", "late delay min", "push rescued"]

    package static func columns(_ reports: [ReplayResult]) -> [String] {
        reports.contains { !$0.total.pushes.isEmpty } ? columns + pushColumns : columns
    }

    package static func cells(_ r: ReplayResult, pushes: Bool) -> [String] {
        guard pushes else { return cells(r) }
        let p = r.total.pushes
        return cells(r) + ["\(p.silent + p.alert)", "\(p.held)",
                           p.deliveredLate == 0 ? "-" : fixed(Double(p.delayMs) / Double(p.deliveredLate) / 60_000, 1),
                           "\(p.rescuedOpens)"]
    }

    package static func cells(_ r: ReplayResult) -> [String] {
        let t = r.total
        let energy = Double(t.energyMicroJ) / 1_000_000
        let userDays = max(1, r.perUser.days)
        return [
            r.policy, "\(t.opens)", fixed(r.freshRate * 100, 1), "\(t.rescuedOpens)",
            t.staleness.quantile(0.5).map { fixed($0 / 60, 1) } ?? "-", "\(t.fetches)", "\(t.failed + t.terminated)",
            fixed(energy, 1), fixed(energy / Double(userDays), 1), fixed(Double(t.cellularBytes) / 1_000_000, 2),
            fixed(t.fetches == 0 ? 0 : Double(t.rescuedOpens) / Double(t.fetches), 3),
            fixed(energy == 0 ? 0 : Double(t.rescuedOpens) / energy * 1000, 2),
            "\(r.violations)", "\(t.refused.wrappedSum())",
        ]
    }

    /// One row per policy, columns aligned.
    public static func table(_ reports: [ReplayResult]) -> String {
        let columns = columns(reports), pushes = columns.count > Self.columns.count
        let rows = [columns] + reports.map { cells($0, pushes: pushes) }
        let widths = columns.indices.map { i in rows.map { $0[i].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { i in
                i == 0 ? row[i] + String(repeating: " ", count: widths[i] - row[i].count)
                       : String(repeating: " ", count: widths[i] - row[i].count) + row[i]
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// The same table in Markdown, for READMEs and notes.
    public static func markdown(_ reports: [ReplayResult]) -> String {
        let columns = columns(reports), pushes = columns.count > Self.columns.count
        var lines = ["| " + columns.joined(separator: " | ") + " |",
                     "|" + columns.indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|"]
        lines += reports.map { "| " + cells($0, pushes: pushes).joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Stale opens per policy by the last chance it had (``MissedTally``), with the oracle's
    /// misses beside them when it ran: what the policy would have to predict.
    public static func missed(_ reports: [ReplayResult], markdown: Bool) -> String {
        let columns = ["policy", "stale opens", "after a screen_on", "after another app's open", "tick only"]
        let rows = reports.map { r -> [String] in
            let m = r.total.missed
            return [r.policy, "\(r.total.opens - r.total.freshOpens)"] + MissedTally.LastChance.allCases.map { "\(m[$0])" }
        }
        return grid(columns, rows, markdown: markdown, leftColumns: [0])
    }

    /// Per local day: opens, fresh share, rescued, fetches, energy against the budget.
    public static func days(_ r: ReplayResult) -> String {
        var out = "date        users  opens  fresh %  rescued  fetches  energy J  budget %\n"
        for d in r.perDay {
            let energy = Double(d.tally.energyMicroJ) / 1_000_000
            let budget = r.energyBudgetMicroJ(of: d) / 1_000_000
            let fresh = d.tally.opens == 0 ? 0 : Double(d.tally.freshOpens) / Double(d.tally.opens) * 100
            out += [d.date, pad(d.users, 5), pad(d.tally.opens, 6), padText(fixed(fresh, 1), 7),
                    pad(d.tally.rescuedOpens, 7), pad(d.tally.fetches, 7), padText(fixed(energy, 1), 8),
                    padText(fixed(energy / budget * 100, 1), 8)].joined(separator: "  ") + "\n"
        }
        return out
    }
}
