/// A projection of one user's engine from a moment with no further events, and the wakes
/// supposed on the way: what the plan of any of the user's apps from that moment reads.
///
/// An app's timed fetches are its rows of the run (``PlanTrace``), and its triggers are wakes
/// supposed at their moments, each on a copy of the engine there. Neither depends on which app
/// asks, but for which wakes it names: so the plans of a user's apps from one moment can share
/// one run and every wake they have in common (``PlanningSession`` keeps a run until the next
/// event or report), and a second app's plan costs its own forecasts and wakes only.
///
/// The run goes only forward. Wakes before the moment it has reached are supposed on a pass of
/// their own from the start, in time order, as a fresh plan would suppose them: the engine's
/// state at a moment is the same whichever run reached it.
///
/// Its stored state is accessed without dynamic exclusivity checks, as the session's is.
final class PlanRun<P: PlanningPolicy> {
    /// What one supposed wake came to: the fetches the engine started or refused there, and what
    /// the policy saw at its decision (nil when it made none), to weigh any app there.
    struct Supposed {
        var rows: [TraceRow]
        var seen: Seen?
    }

    /// What the policy saw at a wake's decision. A reference: the policy's state is large, and a
    /// supposed wake is handed on by value.
    final class Seen {
        let view: UserView
        let state: P.UserState

        init(view: UserView, state: P.UserState) {
            self.view = view
            self.state = state
        }
    }

    /// A wake, by what makes it one: the same event supposed again comes to the same.
    struct Wake: Hashable {
        var time: Int64
        var kind: EventKind
        var app: Int32
        var value: Int16
    }

    /// The moment the run starts from.
    let at: Int64
    /// The engine's state at `at`, before any of the run.
    let startState: EngineState<P.UserState>
    let trace: PlanTrace
    /// The state at `at` for the passes of earlier wakes; nil for a run used by one plan only,
    /// which runs on it rather than on a copy.
    private let start: UserSimulator<P>?
    private let sim: UserSimulator<P>
    /// How far the run has gone.
    @exclusivity(unchecked) private(set) var reached: Int64
    @exclusivity(unchecked) private var supposed: [Wake: Supposed] = [:]
    /// About what the run's start, its engine and the wakes it keeps hold in memory, counted as
    /// they are kept (its rows apart: ``totalBytes``).
    @exclusivity(unchecked) private(set) var bytes: Int
    private let seed: UInt64
    private let catalog: AppCatalog

    /// At most this much memory for a kept run: past it, a wake is still supposed for the plan
    /// that names it but not kept for the next, and a run whose rows pass it (a long horizon's)
    /// is not kept after its plan.
    static var maxBytes: Int { 32 * 1024 }

    /// A run from `at` of `projected`, the engine run on to `at` (with `trace` in its run context,
    /// not yet recording); `keeps`, when other plans will read it, so that it keeps its start.
    init(_ projected: UserSimulator<P>, at: Int64, trace: PlanTrace, keeps: Bool) {
        self.at = at
        startState = projected.state
        self.trace = trace
        seed = projected.run.seed
        catalog = projected.run.catalog
        reached = at
        sim = projected
        start = keeps ? projected.copy(run: Self.context(seed, catalog, trace: nil)) : nil
        trace.energy = projected.state.budget.energy
        trace.day = projected.state.budget.day
        trace.user = projected.user
        bytes = 2 * (MemoryLayout<EngineState<P.UserState>>.stride + projected.state.apps.count * MemoryLayout<AppState>.stride)
    }

    /// Runs on to `t` (nothing when it is there already).
    func advance(to t: Int64) {
        guard t > reached else { return }
        sim.advance(to: t)
        reached = t
    }

    /// About what the run holds in memory: its start and its engine, the wakes it keeps, and
    /// its rows so far.
    var totalBytes: Int { bytes + trace.rows.count * MemoryLayout<TraceRow>.stride }

    /// Whether the run is within ``maxBytes``: a kept run past it is dropped once its plan is made.
    var withinBounds: Bool { totalBytes <= Self.maxBytes }

    /// What each of `events` comes to, supposed at its moment on the engine as the run has it
    /// there; a wake supposed before (by this plan or another) is not supposed again. A run used
    /// by one plan, of `app`, supposes each for that app alone (its rows then show only its fetch).
    func suppose(_ events: [UsageEvent], for app: Int32) -> [Supposed] {
        var out = [Supposed?](repeating: nil, count: events.count)
        var fresh: [Int] = []
        for i in events.indices {
            if let s = supposed[Self.wake(events[i])] { out[i] = s } else { fresh.append(i) }
        }
        fresh.sort { (events[$0].time, $0) < (events[$1].time, $1) }
        if let first = fresh.first {
            // On the run itself when it has not passed the first of them, else on a pass of their own.
            let onRun = events[first].time.millis >= reached
            guard onRun || start != nil else { preconditionFailure("a run used by one plan goes only forward") }
            let pass = onRun ? sim : start!.copy(run: Self.context(seed, catalog, trace: nil))
            for i in fresh {
                let t = events[i].time.millis
                if onRun { advance(to: t) } else { pass.advance(to: t) }
                let s = Self.suppose(events[i], on: pass, seed: seed, catalog: catalog, weighingOnly: start == nil ? app : nil)
                out[i] = s
                keep(s, for: Self.wake(events[i]))
            }
        }
        return out.map { $0! }
    }

    /// Keeps a supposed wake for the plans to come, while the run is within its memory.
    private func keep(_ s: Supposed, for wake: Wake) {
        guard start != nil else { return }  // no plan to come
        let seen = s.seen.map { MemoryLayout<P.UserState>.stride + $0.view.apps.count * MemoryLayout<AppState>.stride } ?? 0
        let size = MemoryLayout<Wake>.stride + MemoryLayout<Supposed>.stride + s.rows.count * MemoryLayout<TraceRow>.stride + seen
        guard totalBytes + size <= Self.maxBytes else { return }
        supposed[wake] = s
        bytes += size
    }

    static func wake(_ e: UsageEvent) -> Wake {
        Wake(time: e.time.millis, kind: e.kind, app: e.app, value: e.value)
    }

    /// Runs a copy of `base` on to `event`'s moment, then the event; returns the fetches the
    /// engine started or refused at it, and what the policy saw at the decision it made there.
    /// With `weighingOnly`, the decision there may weigh that app alone (``UserSimulator/weighingOnly``):
    /// the rows are then that app's as the full decision has them, and maybe no other's.
    /// `base` is left as it is.
    static func suppose(_ event: UsageEvent, on base: UserSimulator<P>, seed: UInt64, catalog: AppCatalog,
                        weighingOnly app: Int32? = nil) -> Supposed {
        let trace = WakeTrace()
        let sim = base.copy(run: context(seed, catalog, trace: trace))
        sim.advance(to: event.time.millis)
        trace.armed = true
        var seen: Seen? = nil
        let asked = point(of: event)
        sim.beforeDecision = { point, view, state in
            if point == asked { seen = Seen(view: view, state: state) }
        }
        sim.weighingOnly = app.map { (asked, $0) }
        sim.process(event)
        return Supposed(rows: trace.rows, seen: seen)
    }

    /// The run context of a projection: no days kept.
    static func context(_ seed: UInt64, _ catalog: AppCatalog, trace: (any TraceSink)?) -> ReplayContext {
        ReplayContext(seed: seed, catalog: catalog, trace: trace, keepsDays: false)
    }

    /// The decision point a log event gives the policy.
    static func point(of e: UsageEvent) -> DecisionPoint {
        e.kind == .open ? .open(app: e.app) : .wake(e.kind)
    }
}
