#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This project's own policy: learns each user's habits (``UsageModel``) and fetches an app
/// when the expected number of opens it rescues is worth the energy and data it costs.
///
/// At each decision point, for each app the user has used:
/// - the chance it is opened soon, by the kind of moment: at screen_on, the chance the session
///   includes it late enough for a fetch to finish; at a plug-in, the chance it is opened in the
///   next five minutes, as after earlier plug-ins; at an open, the chance it comes next (or,
///   when the open starts a session, that the session includes it); at a tick, the chance its
///   habit brings it within the content window — discounted, for users whose screen events
///   give a cheaper chance, by how often a screen_on comes early enough before it;
/// - times the chance that the open would find stale content (from the content model and the
///   app's last refresh), times its reliability (failed and terminated fetches count against it,
///   noData lowers it);
/// - against its marginal cost in joules (the radio wake is free when a wake is under way) plus
///   a price on cellular bytes. The price per joule rises when the day's spending runs ahead of
///   the user's usual demand so far today, and falls when it lags behind.
///
/// Cold start: an app is considered once the user has opened it twice; before any session is
/// learned, nothing is fetched (the model has no habit to go on).
public struct AdaptivePolicy: FetchPolicy {
    public struct UserState: Sendable {
        public var model = UsageModel()
        /// The pacing estimate's running sums, kept while the model is unchanged.
        var demand = DemandCache()
    }

    /// Expected rescues per joule below which a fetch is not worth it, at an even pace.
    ///
    /// 0.16 keeps `adaptive` below the energy of every other real policy on the real and
    /// generated logs while rescuing more than any; 0.04 rescues the most (57% of the oracle's
    /// rescues on the real logs, 88% on generated ones) at 2.6 times the energy of `ios`.
    public var basePrice: Double
    /// Price of a cellular megabyte, in joules, at an even pace.
    public var megabytePrice: Double

    public init(basePrice: Double = 0.16, megabytePrice: Double = 2) {
        self.basePrice = basePrice
        self.megabytePrice = megabytePrice
    }

    /// The name in reports: `adaptive`, or `adaptive:<price>` with another base price.
    public var label = "adaptive"
    public var name: String { label }
    public static var observesEvents: Bool { true }
    public func makeState() -> UserState { UserState() }

    public func observe(_ event: UsageEvent, state: inout UserState) {
        state.model.observe(event)
    }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout UserState, decision: inout Decision) {
        let model = state.model
        guard model.sessionTotal > 0 else { return }
        let now = view.now.millis, offset = view.offsetMinutes
        let sharedWake: Bool
        switch point {
        case .wake, .open: sharedWake = true
        case .tick, .timer: sharedWake = false
        case .contentUpdate: return  // fetch-only: pushes are push-adaptive's
        }
        var paced: Double? = nil  // the pacing estimate, computed when first needed
        // When the predicted open would come: content fresh until then needs no fetch.
        let horizon: Int64
        switch point {
        case .wake(.screenOn), .open: horizon = Millis.minute
        case .wake(.plugged) where model.plugs > 0: horizon = Millis.minute
        case .wake, .tick, .timer, .contentUpdate: horizon = max(view.scenario.tick, Millis.minute)
        }

        for app in view.apps where app.opens >= 2 {
            // Cheap checks first: most apps at most moments cannot or need not fetch.
            guard let stale = Self.staleness(of: app, at: now, within: horizon) else { continue }
            let chance: Double
            switch point {
            case .wake(.screenOn):
                chance = model.sessionProbability(app.id, at: now, offsetMinutes: offset) * model.lateShare(app.id)
            case .open(let opened):
                if app.id == opened { continue }
                let next = model.successorProbability(app.id, after: opened)
                let session = model.sessionStart == now && !model.sessionByScreen
                    ? model.sessionProbability(app.id, at: now, offsetMinutes: offset) : 0
                chance = max(next, session)
            case .wake(.plugged) where model.plugs > 0:
                chance = model.plugProbability(app.id)
            case .wake, .tick, .timer, .contentUpdate:
                let p = model.openProbability(app.id, from: now, span: horizon, offsetMinutes: offset)
                chance = model.hasScreenEvents ? p * (1 - model.lateShare(app.id)) : p
            }
            guard chance > 0 else { continue }
            let value = Self.value(of: app, chance: chance, stale: stale)
            let pace = paced ?? pacing(view, model, &state.demand)
            paced = pace
            let cost = Self.cost(of: app, view: view, sharedWake: sharedWake, megabytePrice: megabytePrice * pace)
            if value >= basePrice * pace * cost { decision.fetches.append(app.id) }
        }
    }

    /// The chance that `app`'s content is stale when an open within `horizon` comes, nil when
    /// the fetch cannot happen (never, in flight, within the interval) or is not needed.
    static func staleness(of app: AppState, at now: Int64, within horizon: Int64) -> Double? {
        guard app.settings.interval != .never, !app.inFlight else { return nil }
        let gap = app.settings.interval.minimumGap
        if gap > 0 && app.lastFetchStart != .min && now - app.lastFetchStart < gap { return nil }
        switch app.settings.content {
        case .window(let w):
            // Fresh content now stays fresh past the horizon: no fetch needed.
            if app.refreshedAt != .min && app.refreshedAt + w >= now + horizon { return nil }
            return 1
        case .updates(let mean):
            let age = app.refreshedAt == .min ? Double(mean) * 10 : Double(now + horizon / 2 - app.refreshedAt)
            return 1 - exp(-age / Double(mean))
        }
    }

    /// Expected rescues of fetching `app` now: the chance of an open, that it would find stale
    /// content, that the fetch succeeds, discounted when fetches mostly bring no new data.
    static func value(of app: AppState, chance: Double, stale: Double) -> Double {
        let done = Double(app.newData + app.noData)
        let reliability = (1 + done) / (1 + done + Double(app.failed) + 2 * Double(app.terminated))
        let news = (1 + Double(app.newData)) / (1 + done)
        return chance * stale * reliability * (0.5 + 0.5 * news)
    }

    /// Joules of a typical fetch of `app` now, with cellular bytes priced in joules.
    static func cost(of app: AppState, view: UserView, sharedWake: Bool, megabytePrice: Double) -> Double {
        let p = app.settings.profile
        let network = view.context.network
        let joules = Double(view.scenario.energy.fetchMicroJ(ms: p.durationMedian, bytes: p.bytes, network: network,
                                                             sharedWake: sharedWake)) / 1_000_000
        return joules + (network == .cellular ? Double(p.bytes) / 1_000_000 * megabytePrice : 0)
    }

    /// How much dearer energy is than at an even pace: spending ahead of the user's usual demand
    /// so far today raises the price, lagging behind lowers it.
    func pacing(_ view: UserView, _ model: UsageModel, _ cache: inout DemandCache) -> Double {
        let spent = Double(view.energyUsedToday) / Double(max(1, view.energyBudget))
        let cellular = Double(view.cellularUsedToday) / Double(max(1, view.cellularBudget))
        let expected = model.demandElapsed(at: view.now.millis, offsetMinutes: view.offsetMinutes, cache: &cache)
        // Running 10% of the budget ahead of demand multiplies the price by e; lagging behind at
        // most halves it: below that, cheap fetches of unlikely opens would spend the budget for
        // little (both measured: the real logs, and the pacing test in AdaptivePolicyTests).
        return max(0.5, exp(10 * (max(spent, cellular) - expected)))
    }
}
