import FetchCore

/// Fetches the apps the user has opened at each screen-on, while the battery can afford it:
/// a policy is a `Sendable` value with a name, a per-user state and a `decide`.
///
/// It may ask for anything: the engine refuses what the hard rules forbid (a `never` app, a
/// custom interval not yet over, the day's budgets, Low Power Mode) and counts each refusal.
struct ScreenOnPolicy: FetchPolicy {
    /// Opens seen per app id: what this policy learns about one user.
    typealias UserState = [Int32: Int]

    var minimumBattery: Int16 = 50
    var name: String { "screen-on" }

    func makeState() -> UserState { [:] }

    static var observesEvents: Bool { true }

    func observe(_ event: UsageEvent, state: inout UserState) {
        if event.kind == .open { state[event.app, default: 0] += 1 }
    }

    func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        guard case .wake(.screenOn) = point, view.context.charging || view.context.batteryLevel >= minimumBattery else { return }
        // The apps opened at least twice so far, most opened first.
        let apps = state.filter { $0.value >= 2 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        decision.fetches.append(contentsOf: apps.map(\.key))
    }
}
