import FetchCore

extension EventStore {
    /// The planner for one user: `scenario` with the fetch intervals set for that user.
    public func planner(user: String, scenario: Scenario, seed: UInt64) throws -> FetchPlanner {
        var s = scenario
        for (app, interval) in try intervals(user: user) {
            let base = s.settings(forApp: app)
            s.apps[app] = AppSettings(interval: interval, content: base.content, profile: base.profile)
        }
        return FetchPlanner(scenario: s, seed: seed)
    }

    /// The one way a user's engine is rebuilt from the store: under the user's intervals, the
    /// user's events and reported fetches in time order (events first at equal times), up to and
    /// including `through` (all when nil). `next`, the service's live state and the service's
    /// plans for a past moment all start here, so they give the same answers.
    public func session(user: String, scenario: Scenario, seed: UInt64, through: Instant? = nil) throws -> PlanningSession {
        let planner = try self.planner(user: user, scenario: scenario, seed: seed)
        return try withHistory(user: user) { source, all in
            let session = PlanningSession(planner: planner, user: user, apps: source.apps)
            let reports = through.map { t in all.filter { $0.start <= t } } ?? all
            var next = 0
            var userID: Int32 = -1
            while let e = try source.next() {
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
    }
}
