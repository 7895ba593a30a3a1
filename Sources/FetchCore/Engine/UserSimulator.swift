import DequeModule
import HeapModule

/// The discrete-event simulation of one user's device under one policy.
///
/// Log events arrive in time order; between them the simulator runs its own moments (fetch
/// completions, the periodic tick, the policy's timer) in order of (time, sequence number),
/// completions first at equal times. No wall clock: time is the log's.
final class UserSimulator<P: FetchPolicy> {
    let user: Int32
    let userHash: UInt64
    let policy: P
    var policyState: P.UserState
    let run: ReplayContext
    let tickMs: Int64
    let energyBudget: Int64
    let cellularBudget: Int64

    var context = DeviceContext()
    var offset = 0
    var unixForm = false
    var now: Int64 = .min
    var origin: Int64 = .min
    /// The time of the last log event or reported fetch run, for ``silence``.
    var lastActivity: Int64 = .min
    var apps: [AppState] = []
    var index: [Int32: Int32] = [:]
    var lookupHint = 0

    var completions = Heap<Moment>()
    var sequence: UInt32 = 0
    var nextTick: Int64 = .max
    var wakeAt: Int64 = .max
    /// The next content update of any `updates` app, for policies that plan pushes (else .max).
    var nextUpdate: Int64 = .max
    /// Discretionary transfers under way or waiting, and when the next one completes.
    var transfers: [Transfer] = []
    var transferDone: Int64 = .max
    /// Registered background tasks, and when the next one ends.
    var tasks: [BackgroundTask] = []
    var taskDone: Int64 = .max
    var radioUntil: Int64 = .min
    var radioNetwork: Network = .wifi

    var day: Int64 = .min
    var dayStart: Int64 = .max
    var dayEnd: Int64 = .min
    var energyToday: Int64 = 0
    var cellularToday: Int64 = 0
    var dayHadEvent = false
    var tally = Tally()
    var total = Tally()
    var activeDays = 0
    var events = 0

    /// The last screen_on, the last open, its app, and the last open of any other app before it
    /// (for ``MissedTally``).
    var lastScreenOn: Int64 = .min
    var lastOpen: Int64 = .min
    var lastOpenApp: Int32 = -1
    var lastOtherOpen: Int64 = .min

    var heldPushes: [HeldPush] = []
    /// Per app, the silent pushes delivered within the last hour (for the rate limit).
    var silentDeliveries: [Int32: [Int64]] = [:]

    var lookaheadBuffer = Deque<UsageEvent>()
    var batch: [UsageEvent] = []
    var decision = Decision()
    /// Sees what the policy sees before each decision; nil in replays. A plan uses it to say
    /// why the policy decided as it did at a wake it supposes (``PlanningSession``); it is not
    /// copied with the state.
    var beforeDecision: ((DecisionPoint, UserView, P.UserState) -> Void)?

    convenience init(user: Int32, name: String, policy: P, run: ReplayContext) {
        self.init(user: user, userHash: StableHash.of(name), policy: policy, state: policy.makeState(), run: run)
    }

    init(user: Int32, userHash: UInt64, policy: P, state: P.UserState, run: ReplayContext) {
        self.user = user
        self.userHash = userHash
        self.policy = policy
        self.policyState = state
        self.run = run
        self.tickMs = run.scenario.tick
        self.energyBudget = run.scenario.energyBudgetMicroJ
        self.cellularBudget = run.scenario.cellularBudgetBytes
    }

    /// A completion, ordered by (time, sequence number): a heap gives no order among ties.
    struct Moment: Comparable {
        var time: Int64
        var sequence: UInt32
        var app: Int32

        static func < (a: Moment, b: Moment) -> Bool {
            a.time != b.time ? a.time < b.time : a.sequence < b.sequence
        }
    }

    /// Takes the next log event of this user (events arrive in time order).
    func receive(_ e: UsageEvent) {
        events += 1
        let ahead = policy.lookahead
        if ahead == 0 {
            stage(e)
        } else {
            lookaheadBuffer.append(e)
            release(through: e.time.millis - ahead)
        }
    }

    /// Ends the replay of this user at its last event; returns its total and active days.
    func finish() -> (tally: Tally, days: Int) {
        drain()
        closePushes()
        tally.background.transfersPending += transfers.count
        transfers.removeAll()
        tally.background.tasksPending += tasks.count
        tasks.removeAll()
        closeDay()
        return (total, activeDays)
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
        while let first = lookaheadBuffer.first, first.time.millis <= limit {
            if origin != .min { advance(to: first.time.millis) }
            while let e = lookaheadBuffer.first, e.time == first.time { batch.append(lookaheadBuffer.removeFirst()) }
            flushBatch()
        }
    }

    /// Collects events of one instant, so they run in canonical order, not the log's.
    private func stage(_ e: UsageEvent) {
        if let first = batch.first, first.time != e.time { flushBatch() }
        batch.append(e)
    }

    private func flushBatch() {
        if batch.count > 1 { batch.sort { $0.canonicallyPrecedes($1) } }
        for e in batch { process(e) }
        batch.removeAll(keepingCapacity: true)
    }

    /// A silence: when no log event or report comes for more than twice this long, the engine
    /// runs the first and the last `silence` of it and skips the periodic ticks and the policy's
    /// timer in between, where a phone that logs nothing is off or not being recorded. No input
    /// can then make the engine tick through years between two events.
    static var silence: Int64 { 7 * Millis.day }

    /// Runs every internal moment up to and including `t`.
    func advance(to t: Int64) {
        if lastActivity != .min && t - lastActivity > 2 * Self.silence {
            runMoments(through: lastActivity + Self.silence)
            let resume = t - Self.silence
            if nextTick < resume { nextTick = (LocalTime.floorDiv(resume - 1, tickMs) + 1) * tickMs }
            if wakeAt < resume { wakeAt = .max }
            lastActivity = resume  // the silence is skipped once
        }
        runMoments(through: t)
    }

    private func runMoments(through t: Int64) {
        while true {
            let done = completions.min?.time ?? .max
            let moment = min(done, nextTick, wakeAt, nextUpdate, transferDone, taskDone)
            if moment > t { return }
            // An update an open consumed first is decided on at once (never back in time).
            now = max(now, moment)
            rollDay(at: now)
            if done == moment {
                complete(completions.removeMin())
            } else if transferDone == moment {
                finishTransfers()
            } else if taskDone == moment {
                finishTasks()
            } else if nextUpdate == moment {
                contentUpdates()
            } else if wakeAt == moment {
                wakeAt = .max
                if nextTick == moment { nextTick += tickMs }
                decide(.timer)
            } else {
                nextTick += tickMs
                decide(.tick)
            }
        }
    }

    func makeView(pushesLeft: Int = 0) -> UserView {
        UserView(now: Instant(millis: now), offsetMinutes: offset, context: context,
                 energyUsedToday: energyToday, cellularUsedToday: cellularToday, apps: apps,
                 future: lookaheadBuffer, catalog: run.catalog, silentPushesLeft: pushesLeft, index: index, seed: run.seed,
                 userHash: userHash, origin: origin)
    }

    func decide(_ point: DecisionPoint) {
        decision.fetches.removeAll(keepingCapacity: true)
        decision.pushes.removeAll(keepingCapacity: true)
        decision.wakeAt = nil
        var pushesLeft = 0
        if P.plansPushes, case .contentUpdate(let app) = point { pushesLeft = silentPushesLeft(app) }
        let view = makeView(pushesLeft: pushesLeft)
        beforeDecision?(point, view, policyState)
        policy.decide(point, view: view, state: &policyState, decision: &decision)
        let asked = decision.fetches
        for app in asked { request(app) }
        if P.plansPushes && !decision.pushes.isEmpty {
            let pushes = decision.pushes
            for app in pushes {
                tally.pushes.planned += 1
                push(app, kind: .silent)
            }
        }
        if let w = decision.wakeAt { wakeAt = w.millis > now ? w.millis : .max }
    }

    /// The index of an app's state, made on first sight. Policies mostly ask for apps in the
    /// order of `view.apps`, so the slot after the last one found is tried before hashing.
    func appIndex(_ id: Int32) -> Int {
        if lookupHint < apps.count && apps[lookupHint].id == id {
            lookupHint += 1
            return lookupHint - 1
        }
        if let i = index[id] {
            lookupHint = Int(i) + 1
            return Int(i)
        }
        let settings = run.catalog.settings(id)
        var updates: UpdateProcess? = nil
        if case .updates(let mean) = settings.content {
            updates = UpdateProcess(seed: run.seed, userHash: userHash, appHash: run.catalog.hash(id),
                                    origin: origin, meanGap: mean)
        }
        apps.append(AppState(id: id, settings: settings, updates: updates, energy: run.scenario.energy))
        index[id] = Int32(apps.count - 1)
        if P.plansPushes, let u = updates { nextUpdate = min(nextUpdate, u.next) }
        return apps.count - 1
    }
}
