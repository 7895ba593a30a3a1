/// What the users of one replay share: configuration, the trace, and the per-day totals.
final class ReplayContext {
    let seed: UInt64
    let catalog: AppCatalog
    let trace: (any TraceSink)?
    /// Per local day: how many users were active, and their tally (only when `keepsDays`).
    @exclusivity(unchecked) var days: [Int64: (users: Int, tally: Tally)] = [:]  // as UserSimulator's state
    /// Whether days are kept: a replay reports them, a planning session does not need them,
    /// and its memory must not grow with the span of the user's history.
    let keepsDays: Bool

    init(seed: UInt64, catalog: AppCatalog, trace: (any TraceSink)?, keepsDays: Bool = true) {
        self.seed = seed
        self.catalog = catalog
        self.trace = trace
        self.keepsDays = keepsDays
    }

    var scenario: Scenario { catalog.scenario }
}
