/// What the users of one replay share: configuration, the trace, and the per-day totals.
final class ReplayContext {
    let seed: UInt64
    let catalog: AppCatalog
    let trace: (any TraceSink)?
    /// Per local day: how many users were active, and their tally.
    var days: [Int64: (users: Int, tally: Tally)] = [:]

    init(seed: UInt64, catalog: AppCatalog, trace: (any TraceSink)?) {
        self.seed = seed
        self.catalog = catalog
        self.trace = trace
    }

    var scenario: Scenario { catalog.scenario }
}
