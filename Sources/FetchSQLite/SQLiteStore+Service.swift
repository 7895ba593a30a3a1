import FetchCore
import FetchStorage
import GRDB
import GRDBSQLite

/// What the HTTP service writes besides events: event ids (for idempotent retries), per-user
/// app intervals, and the fetch results apps report. User names here are the stored names
/// (the service prefixes them with the tenant).
extension SQLiteStore {
    /// Event ids are a user's own: the same id for another user is another event. Keyed by
    /// (user, id), one user's ids sit together, so forgetting them needs no index of their own
    /// and a batch writes no second index; the v3 table was keyed by (tenant, id) with such an
    /// index. Stored names carry the tenant, and ids unique per tenant are unique per user, so
    /// the copy keeps every id.
    static func registerEventIDsByUser(_ m: inout DatabaseMigrator) {
        m.registerMigration("v6-event-ids-by-user") { db in
            try db.execute(sql: """
                CREATE TABLE event_ids_by_user (
                    user TEXT NOT NULL,           -- stored user name
                    id TEXT NOT NULL,
                    PRIMARY KEY (user, id)
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO event_ids_by_user (user, id) SELECT user, id FROM event_ids;
                DROP TABLE event_ids;
                ALTER TABLE event_ids_by_user RENAME TO event_ids;
                """)
        }
    }

    static func registerService(_ m: inout DatabaseMigrator) {
        m.registerMigration("v3-service") { db in
            try db.execute(sql: """
                CREATE TABLE event_ids (
                    tenant TEXT NOT NULL,
                    id TEXT NOT NULL,
                    user TEXT NOT NULL,           -- stored user name, to forget a user's ids
                    PRIMARY KEY (tenant, id)
                ) WITHOUT ROWID;
                CREATE INDEX event_ids_user ON event_ids (user);
                CREATE TABLE intervals (
                    user TEXT NOT NULL,
                    app TEXT NOT NULL,
                    interval TEXT NOT NULL,       -- never, minimum, or custom:<duration>
                    PRIMARY KEY (user, app)
                ) WITHOUT ROWID;
                CREATE TABLE fetch_results (
                    user TEXT NOT NULL,
                    app TEXT NOT NULL,
                    start INTEGER NOT NULL,       -- milliseconds since the Unix epoch, UTC
                    utcOffset INTEGER NOT NULL,
                    duration INTEGER NOT NULL,    -- milliseconds
                    bytes INTEGER NOT NULL,
                    network INTEGER NOT NULL,     -- FetchCore.Network raw value
                    result TEXT NOT NULL,         -- newData, noData, failed, terminated
                    PRIMARY KEY (user, app, start)
                ) WITHOUT ROWID;
                """)
        }
    }

    /// Stores a reported fetch; nil when the same (user, app, start) was stored before.
    public func record(_ f: FetchReport, user: String, app: String) async throws -> VersionStep? {
        try await write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO fetch_results (user, app, start, utcOffset, duration, bytes, network, result)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [user, app, f.start.millis, Int64(f.offsetMinutes), f.durationMs, f.bytes,
                                 Int64(f.network.rawValue), f.result.rawValue])
            return db.changesCount > 0 ? try Self.bumpVersion(user, db) : nil
        }
    }

    /// A stored fetch report, checked (``StoredRow``).
    static func fetchReport(_ row: Row, apps: NameTable, user: String) throws -> FetchReport {
        guard let name = row[0] as String?, let result = row[6] as String? else {
            throw InputError("a stored fetch report of user '\(InputBounds.printable(user))' is out of range")
        }
        return try StoredRow.fetchReport(app: name, start: row[1], offset: row[2], duration: row[3], bytes: row[4],
                                         network: row[5], result: result, apps: apps, user: user)
    }

    /// Sets the fetch interval of `app` for `user`.
    public func setInterval(_ interval: FetchInterval, user: String, app: String) async throws {
        try await write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO intervals (user, app, interval) VALUES (?, ?, ?)",
                           arguments: [user, app, interval.description])
            _ = try Self.bumpVersion(user, db)
        }
    }

    /// The intervals set for `user`, by app name.
    static func intervals(user: String, _ db: Database) throws -> [String: FetchInterval] {
        var out: [String: FetchInterval] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT app, interval FROM intervals WHERE user = ?", arguments: [user]) {
            if let i = FetchInterval(text: row[1] as String) { out[row[0] as String] = i }
        }
        return out
    }

    /// Forgets everything stored about `user`, in one transaction; returns the events removed.
    public func deleteUser(_ user: String) async throws -> Int {
        try await write { db in
            // Ids of names this deletes may go to other names later: the writer forgets them all.
            self.names.withLock { $0 = NameCache() }
            var removed = 0
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE name = ?", arguments: [user]) {
                try db.execute(sql: "DELETE FROM events WHERE user = ?", arguments: [id])
                removed = db.changesCount
                let apps = try Int64.fetchAll(db, sql: "SELECT app FROM user_apps WHERE user = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM user_apps WHERE user = ?", arguments: [id])
                // App names that only this user used go with it.
                let orphan = try db.cachedStatement(sql: """
                    DELETE FROM apps WHERE id = ? AND NOT EXISTS (SELECT 1 FROM user_apps WHERE app = ?)
                    """)
                for app in apps { try orphan.execute(arguments: [app, app]) }
                try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id])
            }
            for table in ["event_ids", "intervals", "fetch_results", "models", "user_versions"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE user = ?", arguments: [user])
            }
            return removed
        }
    }

    /// The time of `user`'s last stored event, nil when there is none.
    public func lastEventTime(user: String) async throws -> Int64? {
        try await pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(ts) FROM events WHERE user = (SELECT id FROM users WHERE name = ?)", arguments: [user])
        }
    }

    /// Whether the store has any event of `user`, and the user's version.
    /// Answers when the file does: one read of its schema version.
    public func ready() async throws {
        try checkFile()
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    }

    public func version(user: String) async throws -> UserVersion {
        try checkFile()
        return try await pool.read { db in
            UserVersion(hasEvents: try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE name = ?", arguments: [user]) != nil,
                        version: try Self.storedVersion(user: user, db))
        }
    }
}
