import FetchAPI
import FetchCore
import FetchStorage

extension SchedulerService {
    /// The JSON of the plan `fetchsched next` would give for the same store, user, app and
    /// moment; from the live session it is the session's kept text when asked again.
    func planJSON(_ user: UserRef, app: String, at moment: Int64?, horizon: Int64) async throws -> String {
        let stored = try await existing(user)
        metrics.plans.increment()
        let live = try await withSession(stored) { session -> String? in
            try Self.checkAhead(moment, of: session)
            guard moment.map({ $0 >= session.lastEventTime }) ?? true else { return nil }
            return try session.planJSON(app: app, at: moment, horizon: horizon, naming: user.name)
        }
        if let live { return live }
        // Planning from a moment in the past: the history up to it, as `next` rebuilds it.
        var plan = try await pastRebuilds.run(tenant: user.tenant) {
            try await buildSession(storedUser: stored.name, through: Instant(millis: moment!)).0.plan(app: app, at: moment, horizon: horizon)
        }
        plan.user = user.name
        return try ResultText.json(plan)
    }

    /// Sets an app's fetch interval for a user with events (404 for one without, as a fetch report
    /// is); the user's session is rebuilt with it.
    func setInterval(_ user: UserRef, app: String, _ interval: FetchInterval) async throws -> API.IntervalBody {
        let stored = try await existing(user)
        try await store.setInterval(interval, user: stored.name, app: app)
        slots.existing(stored.name)?.invalidate()
        return API.IntervalBody(interval: interval.description)
    }

    /// Records a fetch the app made; it counts against the day's budgets and the app's record.
    func recordFetch(_ user: UserRef, _ report: ValidFetchReport) async throws -> API.FetchRecorded {
        let stored = try await existing(user)
        var fetch = report.fetch
        if let last = try await store.lastEventTime(user: stored.name), fetch.start.millis - last > InputBounds.maxHorizon {
            throw RequestError("start is more than \(DurationText.format(InputBounds.maxHorizon)) after the user's last event", field: "start")
        }
        let step = try await store.record(fetch, user: stored.name, app: report.app)
        metrics.fetchReports.increment()
        if let step, let slot = slots.existing(stored.name) {
            slot.update(step) { session in
                // Not at the session's last moment again: it may have been built with this report.
                guard fetch.start.millis > session.lastEventTime, let id = session.userID else { return false }
                fetch.app = session.apps.id(report.app)
                session.report(fetch, user: id)
                return true
            }
        }
        return API.FetchRecorded(recorded: step != nil)
    }

    /// What the user's device has spent of today's budgets at `at` (default: the last event).
    func budget(_ user: UserRef, at moment: Int64?) async throws -> API.Budget {
        let stored = try await existing(user)
        let state = try await withSession(stored) { session in
            try Self.checkAhead(moment, of: session)
            return session.budget(at: moment)
        }
        guard let b = state else {
            throw RequestError("'at' is before the user's last event; budgets are known from then on", field: "at")
        }
        return API.Budget(user: user.name, day: LocalTime.dateText(day: b.day),
                          energyUsedJoules: Double(b.energyUsedMicroJ) / 1e6, energyBudgetJoules: Double(b.energyBudgetMicroJ) / 1e6,
                          energyLeftJoules: Double(b.energyLeftMicroJ) / 1e6, cellularUsedBytes: b.cellularUsedBytes,
                          cellularBudgetBytes: b.cellularBudgetBytes, cellularLeftBytes: b.cellularLeftBytes)
    }

    /// Whether the app's server should send this user a silent push now, and why.
    func pushAdvice(_ user: UserRef, app: String, at moment: Int64?) async throws -> API.PushAdvice {
        let stored = try await existing(user)
        let result = try await withSession(stored) { session -> (PushAdvice, Int64)? in
            try Self.checkAhead(moment, of: session)
            guard let a = session.pushAdvice(app: app, at: moment) else { return nil }
            return (a, moment ?? session.lastEventTime)
        }
        guard let (a, when) = result else {
            throw RequestError("'at' is before the user's last event; advice is given from then on", field: "at")
        }
        return API.PushAdvice(user: user.name, app: app, at: LocalTime.isoText(when, offsetMinutes: 0), push: a.push, reason: a.reason,
                              openProbability: (a.probability * 1000).rounded() / 1000, expectedRescues: (a.value * 1000).rounded() / 1000,
                              costJoules: (a.cost * 1000).rounded() / 1000, silentPushesLeft: a.silentPushesLeft)
    }

    /// Which apps to fetch at a wake of the user's device at `at` (default: the last event):
    /// the decision the replay engine takes at such an event there, given the stored history.
    /// Nothing is stored: the device reports the wake's event and its fetches as usual.
    func wake(_ user: UserRef, kind: WakeKind, at moment: Int64?) async throws -> API.Wake {
        let stored = try await existing(user)
        metrics.wakes.increment()
        let answer = try await withSession(stored) { session in
            try Self.checkAhead(moment, of: session)
            return session.wake(kind, at: moment)
        }
        guard let d = answer else {
            throw RequestError("'at' is before the user's last event; wakes are answered from then on", field: "at")
        }
        return API.Wake(user: user.name, kind: d.kind.rawValue, at: LocalTime.isoText(d.at, offsetMinutes: d.offsetMinutes),
                        fetch: d.fetches.filter { $0.refusal == nil }.map {
                            API.Wake.Fetch(app: $0.app, network: $0.network.logName, energyJoules: Double($0.energyMicroJ) / 1e6,
                                           bytes: $0.bytes)
                        },
                        refused: d.fetches.compactMap { f in f.refusal.map { API.Wake.Refused(app: f.app, refusedBy: $0.traceName) } })
    }

    /// Forgets everything about a user.
    func delete(_ user: UserRef) async throws -> API.Deleted {
        let stored = try await existing(user)
        slots.existing(stored.name)?.invalidate()
        let removed = try await store.deleteUser(stored.name)
        slots.remove(stored.name)
        return API.Deleted(user: user.name, deletedEvents: removed)
    }

    /// A user with events; a user without is not found. Over a shared store, one read gives
    /// both whether the user exists and the version a live session must be at, unless the
    /// session is built and the store tells of every write (``VersionWatch``).
    private func existing(_ user: UserRef) async throws -> StoredUser {
        let stored = user.stored
        // No store read on the hot path: nobody else writes, or the store tells of every write.
        if !store.isShared || versions.isLive, slots.existing(stored)?.isBuilt == true { return StoredUser(name: stored) }
        let state = try await store.version(user: stored)
        guard state.hasEvents else {
            slots.remove(stored)  // deleted, perhaps through another instance
            throw RequestError(.notFound, "no events of user '\(user.name)'", field: "user")
        }
        return StoredUser(name: stored, version: store.isShared ? state.version : nil)
    }

    /// A moment asked about after the user's last event must be one the session can reach
    /// (``PlanningSession/reachable(_:)``): the projection to it stays bounded whatever the date.
    static func checkAhead(_ moment: Int64?, of session: any LiveSession) throws(RequestError) {
        guard let moment, moment > session.lastEventTime, !session.reachable(moment) else { return }
        throw RequestError("'at' is more than \(DurationText.format(InputBounds.maxHorizon)) after the user's last event (\(LocalTime.isoText(session.lastEventTime, offsetMinutes: 0)))", field: "at")
    }
}
