import FetchCore

/// A user's stored history, read in one transaction: everything that rebuilds the user's
/// engine. A value, so the service reads it off the cooperative threads and builds the engine
/// where it needs it.
public struct UserHistory: Sendable {
    public var user: String
    /// The app names the events use, by id.
    public var appNames: [String]
    /// In time order.
    public var events: [UsageEvent]
    /// In order of start.
    public var reports: [FetchReport]
    public var intervals: [String: FetchInterval]
    /// The user's version when this was read (``UserVersion``).
    public var version: Int64

    public init(user: String, appNames: [String], events: [UsageEvent], reports: [FetchReport],
                intervals: [String: FetchInterval], version: Int64) {
        self.user = user
        self.appNames = appNames
        self.events = events
        self.reports = reports
        self.intervals = intervals
        self.version = version
    }

    /// The planner for the user under `policy`: `scenario` with the fetch intervals set for that user.
    public func planner<P: PlanningPolicy>(policy: P, scenario: Scenario, seed: UInt64) -> FetchPlanner<P> {
        var s = scenario
        for (app, interval) in intervals.sorted(by: { $0.key < $1.key }) {
            let base = s.settings(forApp: app)
            s.apps[app] = AppSettings(interval: interval, content: base.content, profile: base.profile)
        }
        return FetchPlanner(scenario: s, seed: seed, policy: policy)
    }

    /// The one way a user's engine is rebuilt from the store: under the user's intervals, the
    /// user's events and reported fetches in time order (events first at equal times), up to and
    /// including `through` (all when nil). `next`, the service's live state and the service's
    /// plans for a past moment all start here, so they give the same answers.
    public func session<P: PlanningPolicy>(policy: P, scenario: Scenario, seed: UInt64,
                                           through: Instant? = nil) -> PlanningSession<P> {
        let apps = NameTable()
        for name in appNames { _ = apps.id(name) }
        let session = PlanningSession(planner: planner(policy: policy, scenario: scenario, seed: seed), user: user, apps: apps)
        let reports = through.map { t in self.reports.filter { $0.start <= t } } ?? self.reports
        var next = 0
        var userID: Int32 = -1
        for e in events {
            if let through, e.time > through { break }
            userID = e.user
            while next < reports.count && reports[next].start < e.time {
                session.report(reports[next], user: e.user)
                next += 1
            }
            session.receive(e)
        }
        while next < reports.count {
            session.report(reports[next], user: max(userID, 0))
            next += 1
        }
        return session
    }

    /// The user's engine under `policy`, held without its type: what `next` and the service plan from.
    public func liveSession(policy: any PlanningPolicy, scenario: Scenario, seed: UInt64, through: Instant? = nil) -> any LiveSession {
        func open<P: PlanningPolicy>(_ p: P) -> any LiveSession { session(policy: p, scenario: scenario, seed: seed, through: through) }
        return open(policy)
    }
}
