/// A per-user online logistic regression over ``OpenFeatures``: the chance that a moment is
/// followed within the content window by an open of the app that would find its content stale.
///
/// It learns forward only: each moment it is asked about becomes an example whose label comes
/// from the log as it goes on (the app's first open within the window, stale or not; none by the
/// window's end is a no), and it learns from the example only then (``LogisticLearner``). It
/// reads the user's habits (``UsageModel``) from its owner, who keeps them anyway, and keeps the
/// counts and the recent past itself. Memory per user is bounded.
public struct OpenLearner: Sendable {
    /// The content window the prior was fitted for.
    public static let defaultWindow: Int64 = 30 * Millis.minute
    /// How far ahead the policy's chance looks for the open a fetch would serve, at every kind
    /// of moment: shorter than a tick, so that a fetch comes when the open is near (the content
    /// window, or the tick at ticks, fetch too early: Benchmarks/HISTORY.md, "Quality").
    package static let policyHorizon: Int64 = 8 * Millis.minute

    public internal(set) var counts = OpenCounts()
    public internal(set) var context: UsageContext
    package var logistic: LogisticLearner

    public init(window: Int64 = OpenLearner.defaultWindow, without: Set<OpenFeatures.Group> = [],
                prior: OpenFeatures.Vector = LogisticLearner.prior) {
        context = UsageContext(window: window)
        logistic = LogisticLearner(window: window, without: without, prior: prior)
    }

    /// Learns from one log event: labels the examples it settles, then updates the counts and
    /// the recent past (the owner updates the habits).
    public mutating func observe(_ e: UsageEvent) {
        let t = e.time.millis
        logistic.advance(to: t)
        if e.kind == .open {
            logistic.opened(e.app, at: t, stale: StaleOpenLabel.stale(open: t, previous: context.lastOpen(e.app), window: context.window))
        }
        counts.observe(e)
        context.observe(e)
    }

    /// The features of `app` at `m`, all of them (``LogisticLearner`` masks those it leaves out).
    package func features(_ app: Int32, at m: PredictionMoment, model: UsageModel) -> OpenFeatures.Vector {
        OpenFeatures.make(app, at: m, model: model, counts: counts, context: context)
    }

    /// The chance of a stale open of `app` soon after `m` (within `horizon`, at most the
    /// learner's window), kept as an example to learn from.
    public mutating func predict(_ app: Int32, at m: PredictionMoment, model: UsageModel, horizon: Int64? = nil) -> Double {
        let x = features(app, at: m, model: model)
        let p = logistic.probability(x)
        logistic.record(x, app: app, at: m.time, horizon: horizon)
        return p
    }

    /// Bytes the learner holds for its user (its counts, recent past, weights and the examples
    /// waiting), counted by element; the habits are the owner's.
    public var bytes: Int {
        counts.bytes + context.bytes + logistic.bytes
    }
}

extension OpenLearner {
    /// The learned model's chance as `predict` scores it (its own learner's, read for every
    /// model alike), the registry's `learned` family's model.
    static let scored = ScoredModel(name: "learned", rank: 2) { _, _, r in r.learned }
}
