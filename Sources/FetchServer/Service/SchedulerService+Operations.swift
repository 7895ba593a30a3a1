import FetchAPI
import FetchCore
import FetchStore

extension SchedulerService {
    /// Validates and stores a batch, all or nothing, then brings the live sessions up to date.
    func ingest(_ batch: API.EventBatch, tenant: String, limits: ServiceLimits) async throws -> API.IngestResult {
        let items = try batch.validated(maxEvents: limits.maxBatchEvents).map { e in
            EventStore.IdentifiedEvent(id: e.id, user: Self.storedName(tenant: tenant, user: e.user), event: e.event, appName: e.appName)
        }
        let added = try await writer.append(items, tenant: tenant)
        metrics.eventsAccepted.increment(by: added.count)
        metrics.eventsDuplicate.increment(by: items.count - added.count)
        follow(added)
        return API.IngestResult(accepted: added.count, duplicates: items.count - added.count)
    }

    /// Feeds new events to the users' live sessions, in time order; a session that would have
    /// to go back in time is dropped and rebuilt from the store when next needed.
    private func follow(_ added: [EventStore.IdentifiedEvent]) {
        var byUser: [String: [EventStore.IdentifiedEvent]] = [:]
        for item in added { byUser[item.user, default: []].append(item) }
        for (user, items) in byUser {
            guard let slot = slots.existing(user) else { continue }
            let sorted = items.enumerated().sorted { ($0.element.event.time, $0.offset) < ($1.element.event.time, $1.offset) }.map(\.element)
            slot.update { session in
                guard let first = sorted.first, first.event.time.millis >= session.lastEventTime else { return false }
                for item in sorted {
                    var e = item.event
                    if e.app >= 0 { e.app = session.apps.id(item.appName) }
                    e.user = session.userID ?? e.user
                    session.receive(e)
                }
                return true
            }
        }
    }

    /// The plan `fetchsched next` would give for the same store, user, app and moment.
    func plan(tenant: String, user: String, app: String, at: String?, horizon: String?, limits: ServiceLimits) throws -> FetchPlan {
        try RequestFields.name(user, field: "user")
        try RequestFields.name(app, field: "app")
        let moment = try at.map { text throws(RequestError) in try RequestFields.instant(text, field: "at") }
        let span = try RequestFields.horizon(horizon, max: limits.maxHorizon)
        let stored = try existingUser(tenant: tenant, user: user)
        metrics.plans.increment()
        var plan = try withSession(storedUser: stored) { session in
            try Self.checkAhead(moment, of: session)
            guard moment.map({ $0 >= session.lastEventTime }) ?? true else {
                // Planning from a moment in the past: the history up to it, as `next` rebuilds it.
                return try store.session(user: stored, scenario: scenario, seed: seed, through: Instant(millis: moment!))
                    .plan(app: app, at: moment, horizon: span)
            }
            return session.plan(app: app, at: moment, horizon: span)
        }
        plan.user = user
        return plan
    }

    /// Sets an app's fetch interval for a user; the user's session is rebuilt with it.
    func setInterval(tenant: String, user: String, app: String, _ body: API.IntervalBody) throws -> API.IntervalBody {
        try RequestFields.name(user, field: "user")
        try RequestFields.name(app, field: "app")
        let interval = try body.validated()
        let stored = Self.storedName(tenant: tenant, user: user)
        try store.setInterval(interval, user: stored, app: app)
        slots.existing(stored)?.invalidate()
        return API.IntervalBody(interval: interval.description)
    }

    /// Records a fetch the app made; it counts against the day's budgets and the app's record.
    func report(tenant: String, user: String, _ r: API.FetchReport) throws -> API.FetchRecorded {
        try RequestFields.name(user, field: "user")
        let valid = try r.validated()
        let start = valid.fetch.start
        let stored = try existingUser(tenant: tenant, user: user)
        if let last = try store.lastEventTime(user: stored), start.millis - last > InputBounds.maxHorizon {
            throw APIError.badRequest("start is more than \(DurationText.format(InputBounds.maxHorizon)) after the user's last event", field: "start")
        }
        var fetch = valid.fetch
        let recorded = try store.record(fetch, user: stored, app: valid.app)
        metrics.fetchReports.increment()
        if recorded, let slot = slots.existing(stored) {
            slot.update { session in
                guard fetch.start.millis >= session.lastEventTime, let id = session.userID else { return false }
                fetch.app = session.apps.id(valid.app)
                session.report(fetch, user: id)
                return true
            }
        }
        return API.FetchRecorded(recorded: recorded)
    }

    /// What the user's device has spent of today's budgets at `at` (default: the last event).
    func budget(tenant: String, user: String, at: String?) throws -> API.Budget {
        try RequestFields.name(user, field: "user")
        let moment = try at.map { text throws(RequestError) in try RequestFields.instant(text, field: "at") }
        let stored = try existingUser(tenant: tenant, user: user)
        let state = try withSession(storedUser: stored) { session in
            try Self.checkAhead(moment, of: session)
            return session.budget(at: moment)
        }
        guard let b = state else {
            throw APIError.badRequest("'at' is before the user's last event; budgets are known from then on", field: "at")
        }
        return API.Budget(user: user, day: LocalTime.dateText(day: b.day),
                          energyUsedJoules: Double(b.energyUsedMicroJ) / 1e6, energyBudgetJoules: Double(b.energyBudgetMicroJ) / 1e6,
                          energyLeftJoules: Double(b.energyLeftMicroJ) / 1e6, cellularUsedBytes: b.cellularUsedBytes,
                          cellularBudgetBytes: b.cellularBudgetBytes, cellularLeftBytes: b.cellularLeftBytes)
    }

    /// Whether the app's server should send this user a silent push now, and why.
    func pushAdvice(tenant: String, user: String, app: String, at: String?) throws -> API.PushAdvice {
        try RequestFields.name(user, field: "user")
        try RequestFields.name(app, field: "app")
        let moment = try at.map { text throws(RequestError) in try RequestFields.instant(text, field: "at") }
        let stored = try existingUser(tenant: tenant, user: user)
        let result = try withSession(storedUser: stored) { session -> (PushAdaptivePolicy.Advice, Int64)? in
            try Self.checkAhead(moment, of: session)
            guard let a = session.pushAdvice(app: app, at: moment) else { return nil }
            return (a, moment ?? session.lastEventTime)
        }
        guard let (a, when) = result else {
            throw APIError.badRequest("'at' is before the user's last event; advice is given from then on", field: "at")
        }
        return API.PushAdvice(user: user, app: app, at: LocalTime.isoText(when, offsetMinutes: 0), push: a.push, reason: a.reason,
                              openProbability: (a.probability * 1000).rounded() / 1000, expectedRescues: (a.value * 1000).rounded() / 1000,
                              costJoules: (a.cost * 1000).rounded() / 1000, silentPushesLeft: a.silentPushesLeft)
    }

    /// Which apps to fetch at a wake of the user's device at `at` (default: the last event):
    /// the decision the replay engine takes at such an event there, given the stored history.
    /// Nothing is stored: the device reports the wake's event and its fetches as usual.
    func wake(tenant: String, user: String, kind: String?, at: String?) throws -> API.Wake {
        try RequestFields.name(user, field: "user")
        let wakeKind = try RequestFields.wakeKind(kind, field: "kind")
        let moment = try at.map { text throws(RequestError) in try RequestFields.instant(text, field: "at") }
        let stored = try existingUser(tenant: tenant, user: user)
        metrics.wakes.increment()
        let answer = try withSession(storedUser: stored) { session in
            try Self.checkAhead(moment, of: session)
            return session.wake(wakeKind, at: moment)
        }
        guard let d = answer else {
            throw APIError.badRequest("'at' is before the user's last event; wakes are answered from then on", field: "at")
        }
        return API.Wake(user: user, kind: d.kind.rawValue, at: LocalTime.isoText(d.at, offsetMinutes: d.offsetMinutes),
                        fetch: d.fetches.filter { $0.refusal == nil }.map {
                            API.Wake.Fetch(app: $0.app, network: $0.network.logName, energyJoules: Double($0.energyMicroJ) / 1e6,
                                           bytes: $0.bytes)
                        },
                        refused: d.fetches.compactMap { f in f.refusal.map { API.Wake.Refused(app: f.app, refusedBy: $0.traceName) } })
    }

    /// Forgets everything about a user.
    func delete(tenant: String, user: String) throws -> API.Deleted {
        try RequestFields.name(user, field: "user")
        let stored = try existingUser(tenant: tenant, user: user)
        slots.existing(stored)?.invalidate()
        let removed = try store.deleteUser(stored)
        slots.remove(stored)
        return API.Deleted(user: user, deletedEvents: removed)
    }

    private func existingUser(tenant: String, user: String) throws -> String {
        let stored = Self.storedName(tenant: tenant, user: user)
        if slots.existing(stored)?.isBuilt == true { return stored }  // no store read on the hot path
        guard try store.hasUser(stored) else { throw APIError.notFound("no events of user '\(user)'", field: "user") }
        return stored
    }

    /// A moment asked about after the user's last event must be one the session can reach
    /// (``PlanningSession/reachable(_:)``): the projection to it stays bounded whatever the date.
    static func checkAhead(_ moment: Int64?, of session: PlanningSession) throws {
        guard let moment, moment > session.lastEventTime, !session.reachable(moment) else { return }
        throw APIError.badRequest("'at' is more than \(DurationText.format(InputBounds.maxHorizon)) after the user's last event (\(LocalTime.isoText(session.lastEventTime, offsetMinutes: 0)))", field: "at")
    }
}
