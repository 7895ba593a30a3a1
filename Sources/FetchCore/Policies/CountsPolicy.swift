/// The counting baseline: a deliberately plain policy that fetches an app when plain counts of
/// the user's past say an open of it is likely soon and its content is old (docs/policies.md).
///
/// It is the reference a learning policy must beat at equal energy: what the learning buys over
/// counting. At a tick, the share of days with an open of the app in the quarter-hours ahead; at
/// an open, how often the app came next after the one opened; at a screen_on, how often an
/// unlock was followed by it (``OpenCounts``). It fetches an app whose content would be stale
/// when that chance, times the chance the content is stale, reaches `threshold`: its one knob.
/// No weights, no decay, no pricing, no pacing; the engine's rules and budgets still hold.
public struct CountsPolicy: CountingPolicy {
    public var threshold: Double
    package var label: String

    public init(threshold: Double = 0.2, label: String = "counts") {
        self.threshold = threshold
        self.label = label
    }

    public var name: String { label }
    public func decide(_ point: DecisionPoint, view: UserView, state: inout OpenCounts, decision: inout Decision) {
        decide(point, view: view, state: state, decision: &decision, only: nil)
    }

    /// The decision for `app` alone: each app is weighed on its own, and the counts are only read.
    public func decide(_ point: DecisionPoint, view: UserView, state: inout OpenCounts, decision: inout Decision,
                       weighingOnly app: Int32) {
        decide(point, view: view, state: state, decision: &decision, only: app)
    }

    @inline(__always)
    private func decide(_ point: DecisionPoint, view: UserView, state: OpenCounts, decision: inout Decision, only: Int32?) {
        guard let horizon = Self.horizon(point, tick: view.scenario.tick) else { return }
        let now = view.now.millis
        for k in view.weighed {
            let app = view.apps[Int(k)]
            guard only == nil || app.id == only, case .stale(let stale) = app.need(at: now, within: horizon) else { continue }
            if stale * Self.chance(of: app.id, at: point, now: now, span: horizon, offsetMinutes: view.offsetMinutes,
                                   counts: state) >= threshold {
                decision.fetches.append(app.id)
            }
        }
    }

    /// How far ahead a decision at `point` looks for the open a fetch would serve; nil where
    /// the policy does not fetch.
    static func horizon(_ point: DecisionPoint, tick: Int64) -> Int64? {
        switch point {
        case .wake(.screenOn): OpenCounts.followWindow
        case .open: OpenCounts.successorWindow
        case .tick, .timer, .wake: max(tick, Millis.minute)
        case .contentUpdate: nil
        }
    }

    /// The counted chance of an open of `app` soon after `point`: the successor count at an
    /// open, the unlock count at a screen_on, the time-of-day count otherwise.
    package static func chance(of app: Int32, at point: DecisionPoint, now: Int64, span: Int64, offsetMinutes: Int,
                              counts: OpenCounts) -> Double {
        switch point {
        case .open(let opened): app == opened ? 0 : counts.successorChance(app, after: opened)
        case .wake(.screenOn): counts.unlockChance(app)
        case .tick, .timer, .wake, .contentUpdate: counts.slotChance(app, from: now, span: span, offsetMinutes: offsetMinutes)
        }
    }

    /// The counted chance of `app` at a prediction moment (over the content window at a tick),
    /// as the prediction benchmark scores it.
    package static func chance(of app: Int32, at m: PredictionMoment, counts: OpenCounts, window: Int64) -> Double {
        let point: DecisionPoint = switch m.kind {
        case .tick, .plug: .tick
        case .unlock: .wake(.screenOn)
        case .open: .open(app: m.opened)
        }
        return chance(of: app, at: point, now: m.time, span: window, offsetMinutes: m.offsetMinutes, counts: counts)
    }
}

extension CountsPolicy {
    /// The counted chance as `predict` scores it, the registry's `counts` family's model.
    static let scored = ScoredModel(name: "counts", rank: 1) { app, m, r in
        chance(of: app, at: m, counts: r.counts, window: r.window) * r.staleShare
    }
}
