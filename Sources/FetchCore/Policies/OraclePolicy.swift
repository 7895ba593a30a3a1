/// Sees the future opens and content updates and plans the best fetches the budgets allow:
/// the upper limit no real policy can pass.
///
/// At the first decision point of each local day it lists the day's opens that would be stale
/// with no background fetch, plans one fetch to finish just before each (its profile's p95
/// duration plus a second ahead, on the latest moment the device context allows), keeps the
/// cheapest ones that fit the day's remaining budgets, thins them to honor custom intervals,
/// and then wakes itself at each planned moment. A real policy can only guess which opens
/// come, and when; the oracle knows, so at the same budget it rescues at least as many.
public struct OraclePolicy: FetchPolicy {
    public struct UserState {
        var day: Int64 = .min
        var plan: [OraclePlanner.Entry] = []
        var cursor = 0
    }

    public init() {}

    public var name: String { "oracle" }

    /// A whole local day ahead, with room for an offset change.
    public var lookahead: Int64 { 26 * Millis.hour }

    public func makeState() -> UserState { UserState() }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        let day = view.localDay
        if day != state.day {
            state.plan = OraclePlanner(view: view).plan()
            state.day = day
            state.cursor = 0
        }
        let now = view.now.millis
        while state.cursor < state.plan.count && state.plan[state.cursor].time <= now {
            decision.fetches.append(state.plan[state.cursor].app)
            state.cursor += 1
        }
        if state.cursor < state.plan.count {
            decision.wakeAt = Instant(millis: state.plan[state.cursor].time)
        }
    }
}
