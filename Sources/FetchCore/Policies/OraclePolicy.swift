/// Sees the future opens, context changes and content updates, and the seeded outcome of any
/// fetch, and plans the best fetches the budgets allow: the upper limit no real policy can pass.
///
/// At the first decision point of each local day it lists the day's opens that would be stale
/// with no background fetch. For each it looks for the cheapest moment whose fetch succeeds and
/// finishes before the open: a shorter draw, Wi-Fi rather than cellular, a radio already awake
/// (after a wake event or another planned fetch). It then takes the cheapest of these fetches
/// while the engine would still let each start (the worst case it reserves at each start, the
/// apps' intervals, a fetch still running), and wakes itself at each planned moment.
///
/// Every open that can be rescued needs a fetch of its own (an open refreshes its app, so one
/// fetch helps at most the next open), each planned fetch rescues its open, and the cheapest
/// ones are kept first: so no policy rescues more opens on the same day and budget. Two limits
/// of the claim: the content of an app with background transfers arrives with the transfer,
/// which the oracle does not plan; and a fetch in the last minutes of a day for an open just
/// after midnight is charged to the new day.
///
/// `oracle:opens` (``knowsDraws`` false) knows the opens and the context but not the fetches'
/// outcomes: it plans each fetch as the app's typical one, so some fail, run late or cost more
/// than planned. It is the reference for prediction alone: a policy that foresaw every open
/// would do about as well, while the full oracle also picks lucky draws no policy can know.
package struct OraclePolicy: FetchPolicy {
    public struct UserState {
        var day: Int64 = .min
        var plan: [OraclePlanner.Entry] = []
        var cursor = 0
    }

    /// Whether it foresees each fetch's seeded outcome (`oracle`) or only the opens (`oracle:opens`).
    package var knowsDraws: Bool

    public init(knowsDraws: Bool = true) { self.knowsDraws = knowsDraws }

    public var name: String { knowsDraws ? "oracle" : "oracle:opens" }

    /// A whole local day ahead, with room for an offset change.
    package var lookahead: Int64 { 26 * Millis.hour }

    public func makeState() -> UserState { UserState() }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        let day = view.localDay
        if day != state.day {
            // At a log event, others of the same instant may still be on their way: plan a
            // millisecond later, when the instant has run and `view.future` is complete.
            switch point {
            case .tick, .timer: break
            case .wake, .open, .contentUpdate:
                decision.wakeAt = view.now + 1
                return
            }
            var planner = OraclePlanner(view: view, knowsDraws: knowsDraws)
            state.plan = planner.plan()
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
