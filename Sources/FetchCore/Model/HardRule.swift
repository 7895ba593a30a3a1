/// The five hard rules of docs/hard-rules.md, which the engine enforces whatever a policy asks.
public enum HardRule: Int, CaseIterable, Sendable {
    /// 1. An app whose interval is `never` is never fetched.
    case never
    /// 2. Under `custom(s)`, two fetches of one app start at least `s` apart.
    case interval
    /// 3. No fetch runs past its 30-second deadline.
    case deadline
    /// 4. A day's energy and cellular bytes never exceed that day's budgets.
    case budget
    /// 5. No fetch in Low Power Mode, with no network, or below 20% battery when not charging.
    case context

    public var name: String {
        switch self {
        case .never: "never"
        case .interval: "interval"
        case .deadline: "deadline"
        case .budget: "budget"
        case .context: "context"
        }
    }
}

/// Why the engine refused a fetch a policy asked for.
public enum Refusal: Int, CaseIterable, Sendable {
    case never, interval, energyBudget, cellularBudget, lowPower, noNetwork, lowBattery
    /// The app's previous fetch is still running: not a hard rule, one fetch at a time.
    case running

    /// The hard rule behind the refusal, nil for `running`.
    public var rule: HardRule? {
        switch self {
        case .never: .never
        case .interval: .interval
        case .energyBudget, .cellularBudget: .budget
        case .lowPower, .noNetwork, .lowBattery: .context
        case .running: nil
        }
    }

    /// The trace's `refusedBy` text: the rule, and what of it.
    public var traceName: String {
        switch self {
        case .never: "never"
        case .interval: "interval"
        case .energyBudget: "budget-energy"
        case .cellularBudget: "budget-cellular"
        case .lowPower: "context-lowpower"
        case .noNetwork: "context-network"
        case .lowBattery: "context-battery"
        case .running: "running"
        }
    }

    /// The key used in JSON `refused` objects.
    public var key: String {
        switch self {
        case .never: "never"
        case .interval: "interval"
        case .energyBudget: "energyBudget"
        case .cellularBudget: "cellularBudget"
        case .lowPower: "lowPower"
        case .noNetwork: "noNetwork"
        case .lowBattery: "lowBattery"
        case .running: "running"
        }
    }
}
