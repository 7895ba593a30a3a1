/// A published peer: APPM with prefetch at unlock (Parate, Böhmer, Chu, Ganesan and Marlin,
/// UbiComp 2013), mapped onto this engine as docs/policies.md describes.
///
/// At each unlock it fetches, in parallel, the `apps` apps its predictor ranks first
/// (``AppSequenceModel``: which app comes next by prediction by partial match over the app
/// sequence, times the chance its open comes within `sessionSpan`), among those whose content
/// would be stale. In a log without screen events the first open of a session stands in for
/// the unlock. It does nothing at ticks, opens within a session or plug-ins: the paper
/// prefetches at unlock only. The engine's rules and budgets hold as for every policy.
public struct APPMPolicy: FetchPolicy {
    /// How many apps it prefetches at an unlock: its knob.
    public var apps: Int
    package var label: String
    /// How soon after the unlock an open must come for the prefetch to serve it.
    package static let sessionSpan: Int64 = 10 * Millis.minute
    /// The most apps a name may ask for.
    package static let maxApps = 16

    public init(apps: Int = 3, label: String = "appm") {
        self.apps = max(1, min(apps, Self.maxApps))
        self.label = label
    }

    public var name: String { label }
    public static var observesEvents: Bool { true }
    public func makeState() -> AppSequenceModel { AppSequenceModel() }

    public func observe(_ event: UsageEvent, state: inout AppSequenceModel) {
        state.observe(event)
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout AppSequenceModel, decision: inout Decision) {
        let now = view.now.millis
        switch point {
        case .wake(.screenOn):
            decision.fetches += Self.ranked(view: view, model: state, except: -1).prefix(apps)
        case .open(let opened) where !state.sawScreen && state.sessionStart == now:
            decision.fetches += Self.ranked(view: view, model: state, except: opened).prefix(apps)
        default:
            break
        }
    }

    /// The apps whose content would be stale within ``sessionSpan``, by the predictor's score
    /// (best first, then by id), without those it gives no chance at all.
    static func ranked(view: UserView, model: AppSequenceModel, except: Int32) -> [Int32] {
        let now = view.now.millis
        var scored: [(app: Int32, score: Double)] = []
        for k in view.weighed {
            let app = view.apps[Int(k)]
            guard app.id != except, case .stale = app.need(at: now, within: sessionSpan) else { continue }
            let s = chance(of: app.id, now: now, span: sessionSpan, model: model)
            if s > 0 { scored.append((app.id, s)) }
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.app < $1.app }
        return scored.map(\.app)
    }

    /// APPM's chance that `app` is the next app opened and comes within `span` of `now`.
    package static func chance(of app: Int32, now: Int64, span: Int64, model: AppSequenceModel) -> Double {
        model.nextChance(app) * model.withinChance(app, now: now, span: span)
    }
}

extension APPMPolicy {
    /// APPM's sequence chance as `predict` scores it, the registry's `appm` family's model.
    static let scored = ScoredModel(name: "appm", rank: 3) { app, m, r in
        chance(of: app, now: m.time, span: r.window, model: r.sequence) * r.staleShare
    }
}
