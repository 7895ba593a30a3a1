/// The discrete-event simulation of one user's device under one policy.
///
/// Log events arrive in time order; between them the simulator runs its own moments (fetch
/// completions, the periodic tick, the policy's timer) in order of (time, sequence number),
/// completions first at equal times. No wall clock: time is the log's.
///
/// The class holds what does not change (the user, the policy, the run) and one
/// ``EngineState`` value with everything that does; its methods are the effects.
///
/// Its stored state is accessed without dynamic exclusivity checks: every event and moment of
/// a replay reads and writes it, one simulator is only ever used by one thread, and no method
/// keeps an access open across a call that could start another (the Benchmarks package's
/// replays show what the checks would cost).
final class UserSimulator<P: FetchPolicy> {
    let user: Int32
    let userHash: UInt64
    let policy: P
    let run: ReplayContext
    let tickMs: Int64
    @exclusivity(unchecked) var state: EngineState<P.UserState>
    /// The policy's answer, reused across decisions so its arrays keep their capacity.
    @exclusivity(unchecked) var decision = Decision()
    /// Sees what the policy sees before each decision; nil in replays. A plan uses it to say
    /// why the policy decided as it did at a wake it supposes (``PlanningSession``); it is not
    /// part of the state, so not copied with it.
    var beforeDecision: ((DecisionPoint, UserView, P.UserState) -> Void)?
    /// A decision point and the one app that matters there: a plan supposing a wake for one app's
    /// triggers reads nothing of the decision but that app's fetch, so the policy is asked to
    /// weigh that app alone (``FetchPolicy/decide(_:view:state:decision:weighingOnly:)``) where
    /// the budgets leave no room for another app's fetch to refuse it. Not part of the state.
    var weighingOnly: (point: DecisionPoint, app: Int32)?

    convenience init(user: Int32, name: String, policy: P, run: ReplayContext) {
        let userHash = StableHash.of(name)
        self.init(user: user, userHash: userHash, policy: policy, state: policy.makeState(userHash: userHash), run: run)
    }

    init(user: Int32, userHash: UInt64, policy: P, state: P.UserState, run: ReplayContext) {
        self.user = user
        self.userHash = userHash
        self.policy = policy
        self.run = run
        self.tickMs = run.scenario.tick
        self.state = EngineState(budget: DayBudget(scenario: run.scenario), policy: state)
    }

    /// An independent copy with its own run context, to project ahead without touching this one.
    ///
    /// The state's arrays, heap and policy state are copy-on-write values, so a copy costs a
    /// few reference-count bumps until the projection writes to them.
    func copy(run: ReplayContext) -> UserSimulator {
        let c = UserSimulator(user: user, userHash: userHash, policy: policy, state: state.policy, run: run)
        c.state = state
        return c
    }

    /// Takes the next log event of this user (events arrive in time order).
    func receive(_ e: UsageEvent) {
        state.events += 1
        let ahead = policy.lookahead
        if ahead == 0 {
            stage(e)
        } else {
            state.lookahead.append(e)
            release(through: e.time.millis - ahead)
        }
    }

    /// Ends the replay of this user at its last event; returns its total and active days.
    func finish() -> (tally: Tally, days: Int) {
        drain()
        closePushes()
        state.tally.background.transfersPending += state.transfers.drop()
        state.tally.background.tasksPending += state.tasks.drop()
        closeDay()
        return (state.total, state.activeDays)
    }

    /// Runs every event received so far.
    func drain() {
        release(through: .max)
        flushBatch()
    }

    /// Moves buffered events up to `limit` into the simulation; an event leaves the buffer only
    /// after the instant before it has run, so the policy's `future` always starts right after.
    ///
    /// Every event of an instant is in the buffer by then (the limit trails the newest event),
    /// so the instant runs whole; the moments before it run while its events are still ahead.
    private func release(through limit: Int64) {
        while let first = state.lookahead.first, first.time.millis <= limit {
            if state.origin != .min { advance(to: first.time.millis) }
            while let e = state.lookahead.first, e.time == first.time { state.batch.append(state.lookahead.removeFirst()) }
            flushBatch()
        }
    }

    /// Collects events of one instant, so they run in canonical order, not the log's.
    private func stage(_ e: UsageEvent) {
        if let first = state.batch.first, first.time != e.time { flushBatch() }
        state.batch.append(e)
    }

    private func flushBatch() {
        if state.batch.count > 1 { state.batch.sort { $0.canonicallyPrecedes($1) } }
        for e in state.batch { process(e) }
        state.batch.removeAll(keepingCapacity: true)
    }

    /// A silence: when no log event or report comes for more than twice this long, the engine
    /// runs the first and the last `silence` of it and skips the periodic ticks and the policy's
    /// timer in between, where a phone that logs nothing is off or not being recorded. No input
    /// can then make the engine tick through years between two events.
    static var silence: Int64 { 7 * Millis.day }

    /// Runs every internal moment up to and including `t`.
    func advance(to t: Int64) {
        let last = state.lastActivity
        if last != .min && t - last > 2 * Self.silence {
            runMoments(through: last + Self.silence)
            let resume = t - Self.silence
            state.agenda.skipSilence(to: resume, every: tickMs)
            state.lastActivity = resume  // the silence is skipped once
        }
        runMoments(through: t)
    }

    private func runMoments(through t: Int64) {
        while let (moment, what) = state.agenda.due(through: t, transfers: state.transfers.nextDone,
                                                    tasks: state.tasks.nextDone) {
            // An update an open consumed first is decided on at once (never back in time).
            state.now = max(state.now, moment)
            rollDay(at: state.now)
            switch what {
            case .completion: complete(state.agenda.takeCompletion())
            case .transfers: finishTransfers()
            case .tasks: finishTasks()
            case .update: contentUpdates()
            case .timer:
                state.agenda.fireTimer(at: moment, every: tickMs)
                decide(.timer)
            case .tick:
                state.agenda.fireTick(every: tickMs)
                decide(.tick)
            }
        }
    }
}
