import FetchCore

extension ResultText {
    package static let frontierColumns = ["family", "points", "oracle J", "rescued at oracle J", "× oracle", "best point",
                                  "its rescued", "× oracle", "its J ÷ oracle J"]

    package static func cells(_ f: Frontier) -> [String] {
        let r = f.ratios
        return [f.family, "\(f.points.count)", f.oracle.map { fixed($0.energyJoules, 1) } ?? "-",
                f.rescuedAtOracleEnergy.map { fixed($0, 1) } ?? "-", r.map { fixed($0.atOracleEnergy, 2) } ?? "-",
                f.best.policy, "\(f.best.rescuedOpens)", r.map { fixed($0.best, 2) } ?? "-", r.map { fixed($0.bestEnergy, 2) } ?? "-"]
    }

    /// The frontiers, one row per family: read at the oracle's energy, and their best point;
    /// then each policy without a knob beside every family's rescued opens at its energy.
    public static func frontiers(_ frontiers: [Frontier], markdown: Bool) -> String {
        var columns = ["policy", "energy J", "rescued"]
        var rows: [[String]] = []
        for (i, c) in (frontiers.first?.atEnergyOf ?? []).enumerated() {
            rows.append([c.policy, fixed(c.energyJoules, 1), "\(c.rescuedOpens)"] + frontiers.map { fixed($0.atEnergyOf[i].frontierRescuedOpens, 1) })
        }
        columns += frontiers.map { "\($0.family) at that energy" }
        return grid(frontierColumns, frontiers.map(cells), markdown: markdown, leftColumns: [0, 5]) + "\n"
            + grid(columns, rows, markdown: markdown, leftColumns: [0])
    }
}
