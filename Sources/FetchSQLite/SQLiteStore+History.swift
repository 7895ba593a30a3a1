import FetchCore
import FetchStorage
import GRDB

extension SQLiteStore {
    /// `user`'s history (``UserHistory``), read in one transaction.
    public func history(user: String) throws -> UserHistory {
        try pool.read { db in try Self.history(user: user, db) }
    }

    /// `user`'s history, read on the store's own threads: the caller's thread is not blocked.
    public func history(user: String) async throws -> UserHistory {
        try await pool.read { db in try Self.history(user: user, db) }
    }

    private static func history(user: String, _ db: Database) throws -> UserHistory {
        var source = try StoreEventSource(db: db, user: user)
        var events: [UsageEvent] = []
        while let e = try source.next() { events.append(e) }
        let apps = source.apps
        let reports = try Row.fetchAll(db, sql: """
            SELECT app, start, utcOffset, duration, bytes, network, result FROM fetch_results
            WHERE user = ? ORDER BY start, app
            """, arguments: [user]).map { row in try fetchReport(row, apps: apps, user: user) }
        return UserHistory(user: user, appNames: apps.names, events: events, reports: reports,
                           intervals: try intervals(user: user, db), version: try storedVersion(user: user, db))
    }
}
