import DequeModule

/// A policy's read-only view of one user at one decision point.
public struct UserView {
    public let now: Instant
    public let offsetMinutes: Int
    public let context: DeviceContext
    /// Energy spent today (the user's local day), in microjoules.
    public let energyUsedToday: Int64
    public let cellularUsedToday: Int64
    /// Of those, what the fetches this policy asked for spent: not those an app's pushes, a
    /// location wake or an app's own report started.
    public let policyEnergyToday: Int64
    public let policyCellularToday: Int64
    /// The apps seen so far for this user.
    public let apps: [AppState]
    /// The apps a decision weighs (indices into ``apps``): those the user has opened, at most
    /// ``WeighedApps/limit`` of them, the most recently opened. Policies that weigh apps by a
    /// chance loop over these, so that a decision's cost does not grow with the user's apps.
    public let weighed: WeighedApps
    /// Log events after `now`: empty unless the policy declared a lookahead.
    public let future: Deque<UsageEvent>
    public let catalog: AppCatalog
    /// At a content update: silent pushes the app may still receive within the hourly limit.
    public let silentPushesLeft: Int
    let index: [Int32: Int32]
    let seed: UInt64
    let userHash: UInt64
    let origin: Int64

    public var scenario: Scenario { catalog.scenario }
    public var energyBudget: Int64 { catalog.scenario.energyBudgetMicroJ }
    public var cellularBudget: Int64 { catalog.scenario.cellularBudgetBytes }
    public var localDay: Int64 { LocalTime.day(now.millis, offsetMinutes: offsetMinutes) }
    /// Where the current local day ends.
    public var dayEnd: Int64 { LocalTime.start(ofDay: localDay + 1, offsetMinutes: offsetMinutes) }

    /// The state of an app, nil when the user has not used it yet.
    public func app(_ id: Int32) -> AppState? {
        index[id].map { apps[Int($0)] }
    }

    /// The settings of any app, known or not.
    public func settings(_ id: Int32) -> AppSettings { app(id)?.settings ?? catalog.settings(id) }

    /// A copy of the app's server update process, to look ahead; nil for `window` content.
    public func contentUpdates(_ id: Int32) -> UpdateProcess? {
        if let a = app(id) { return a.updates }
        guard case .updates(let mean) = catalog.settings(id).content else { return nil }
        return UpdateProcess(seed: seed, userHash: userHash, appHash: catalog.hash(id), origin: origin, meanGap: mean)
    }
}
