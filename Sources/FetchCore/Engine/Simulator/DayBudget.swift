/// One user's spending on the current local day against the daily budgets: the one place a
/// fetch's energy and cellular bytes are charged, and a request's worst case is checked.
struct DayBudget {
    let energyLimit: Int64
    let cellularLimit: Int64
    /// The local day (days since 1970-01-01 at the user's offset), `Int64.min` before any.
    private(set) var day: Int64 = .min
    private var start: Int64 = .max
    private var end: Int64 = .min
    private(set) var energy: Int64 = 0
    private(set) var cellular: Int64 = 0
    /// Of those, what the fetches the policy asked for spent.
    private(set) var policyEnergy: Int64 = 0
    private(set) var policyCellular: Int64 = 0

    init(scenario: Scenario) {
        energyLimit = scenario.energyBudgetMicroJ
        cellularLimit = scenario.cellularBudgetBytes
    }

    /// Whether `t` falls in the current local day.
    func contains(_ t: Int64) -> Bool { t >= start && t < end }

    /// Makes `d` the current day at the offset; a different day starts with nothing spent.
    mutating func enter(day d: Int64, offsetMinutes: Int) {
        if d != day {
            day = d
            energy = 0
            cellular = 0
            policyEnergy = 0
            policyCellular = 0
        }
        start = LocalTime.start(ofDay: d, offsetMinutes: offsetMinutes)
        end = start + Millis.day
    }

    /// The offset changed: the day's bounds are found again at the next moment.
    mutating func forgetBounds() { end = .min }

    /// Charges a fetch that ran (or was reported). Totals saturate: reports are bounded one by
    /// one (InputBounds), not in number.
    mutating func charge(energy e: Int64, bytes: Int64, network: Network) {
        energy = energy.saturatingAdd(e)
        if network == .cellular { cellular = cellular.saturatingAdd(bytes) }
    }

    /// Counts what the day spent from `before` on as the policy's own fetches'.
    mutating func countPolicy(since before: (energy: Int64, cellular: Int64)) {
        policyEnergy = policyEnergy.saturatingAdd(energy - before.energy)
        policyCellular = policyCellular.saturatingAdd(cellular - before.cellular)
    }

    /// The budget a fetch reserving this worst case now would break, or nil.
    func refusal(worstEnergy: Int64, worstBytes: Int64, network: Network) -> Refusal? {
        if energy + worstEnergy > energyLimit { return .energyBudget }
        if network == .cellular && cellular + worstBytes > cellularLimit { return .cellularBudget }
        return nil
    }

    /// Whether the day has spent more than either budget (a hard-rule violation).
    var overspent: Bool { energy > energyLimit || cellular > cellularLimit }

    func state(offsetMinutes: Int) -> BudgetState {
        BudgetState(day: day, offsetMinutes: offsetMinutes, energyUsedMicroJ: energy, energyBudgetMicroJ: energyLimit,
                    cellularUsedBytes: cellular, cellularBudgetBytes: cellularLimit)
    }
}
