import FetchCore
import GRDB
import GRDBSQLite

/// What the HTTP service writes besides events: event ids (for idempotent retries), per-user
/// app intervals, and the fetch results apps report. User names here are the stored names
/// (the service prefixes them with the tenant).
extension EventStore {
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

    /// Appends a batch in one transaction: all of it or nothing. Events whose id the tenant
    /// already sent are skipped, so a retried batch adds nothing twice. Returns the events
    /// actually added, in batch order.
    public func append(_ batch: [IdentifiedEvent], tenant: String) async throws -> [IdentifiedEvent] {
        try await appendGroup([(batch, tenant)])[0].get().added
    }

    /// Appends several batches in one transaction, each all or nothing (a savepoint each):
    /// group commit for concurrent requests. One commit for many batches, since the writer is
    /// single and each commit costs a WAL sync; a batch that fails leaves the others in.
    public func appendGroup(_ batches: [(events: [IdentifiedEvent], tenant: String)]) async throws -> [Result<AppendOutcome, any Error>] {
        try await pool.write { db in
            var results: [Result<AppendOutcome, any Error>] = []
            for (events, tenant) in batches {
                var outcome = AppendOutcome(added: [], steps: [:])
                do {
                    try db.inSavepoint {
                        outcome.added = try Self.insert(events, tenant: tenant, db)
                        for user in Set(outcome.added.map(\.user)).sorted() { outcome.steps[user] = try Self.bumpVersion(user, db) }
                        return .commit
                    }
                    results.append(.success(outcome))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        }
    }

    /// Claims the batch's ids (``claim(_:tenant:_:)``), then inserts the events whose id was new, in
    /// batch order. Binds go straight to SQLite's statement handle, as in ``ingest(_:)``: this
    /// runs on the single writer for every request.
    private static func insert(_ batch: [IdentifiedEvent], tenant: String, _ db: Database) throws -> [IdentifiedEvent] {
        let claimed = try claim(batch, tenant: tenant, db)
        guard !claimed.isEmpty else { return [] }
        var added: [IdentifiedEvent] = []
        added.reserveCapacity(claimed.count)
        let insert = try db.cachedStatement(sql: """
            INSERT INTO events (ts, user, kind, app, value, occurrence, utcOffset, unixForm)
            VALUES (?1, ?2, ?3, ?4, ?5,
                    (SELECT count(*) FROM events WHERE ts = ?1 AND user = ?2 AND kind = ?3 AND app = ?4 AND value = ?5),
                    ?6, ?7)
            """)
        let h = insert.sqliteStatement
        var userIDs: [String: Int64] = [:]
        var appIDs: [String: Int64] = [:]
        var pairs: Set<[Int64]> = []
        var seen = Set<String>()
        for item in batch where claimed.contains(item.id) && seen.insert(item.id).inserted {
            let user = try userIDs[item.user] ?? nameID(item.user, in: "users", db)
            userIDs[item.user] = user
            let e = item.event
            var app: Int64 = 0
            if e.app >= 0 {
                app = try appIDs[item.appName] ?? nameID(item.appName, in: "apps", db)
                appIDs[item.appName] = app
                pairs.insert([user, app])
            }
            sqlite3_bind_int64(h, 1, e.time.millis)
            sqlite3_bind_int64(h, 2, user)
            sqlite3_bind_int64(h, 3, Int64(e.kind.rawValue))
            sqlite3_bind_int64(h, 4, app)
            sqlite3_bind_int64(h, 5, Int64(e.value))
            sqlite3_bind_int64(h, 6, Int64(e.offsetMinutes))
            sqlite3_bind_int64(h, 7, e.unixForm ? 1 : 0)
            let rc = sqlite3_step(h)
            sqlite3_reset(h)
            guard rc == SQLITE_DONE else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            added.append(item)
        }
        try recordUserApps(pairs.map { ($0[0], $0[1]) }, db)
        return added
    }

    /// Claims the ids of `batch` for `tenant`, many rows per statement; returns those that were
    /// new. An id sent twice in one batch is claimed once, by its first event. Statements take a
    /// power of two of rows, at most ``claimRows``: few statements for a batch of any size, and
    /// few statement shapes in the cache. The ids already stored are read first, then all are
    /// inserted, ignoring those: the writer is single, so nothing comes between the two (SQLite's
    /// RETURNING would do it in one, but needs SQLite 3.35, newer than some distributions ship).
    private static func claim(_ batch: [IdentifiedEvent], tenant: String, _ db: Database) throws -> Set<String> {
        var claimed = Set<String>()
        var rest = batch[...]
        while !rest.isEmpty {
            let rows = min(claimRows, 1 << (Int.bitWidth - 1 - rest.count.leadingZeroBitCount))
            let chunk = rest.prefix(rows)
            rest = rest.dropFirst(rows)
            let find = try db.cachedStatement(sql: "SELECT id FROM event_ids WHERE tenant = ? AND id IN ("
                + Array(repeating: "?", count: rows).joined(separator: ", ") + ")")
            let stored = try String.fetchSet(find, arguments: StatementArguments([tenant] + chunk.map(\.id)))
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO event_ids (tenant, id, user) VALUES "
                + Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", "))
            var values: [any DatabaseValueConvertible] = []
            values.reserveCapacity(rows * 3)
            for item in chunk { values += [tenant, item.id, item.user] }
            try insert.execute(arguments: StatementArguments(values))
            for item in chunk where !stored.contains(item.id) { claimed.insert(item.id) }
        }
        return claimed
    }

    /// The most rows one claim statement takes.
    static let claimRows = 64

    private static func nameID(_ name: String, in table: String, _ db: Database) throws -> Int64 {
        let find = try db.cachedStatement(sql: "SELECT id FROM \(table) WHERE name = ?")
        if let id = try Int64.fetchOne(find, arguments: [name]) { return id }
        try db.cachedStatement(sql: "INSERT INTO \(table) (name) VALUES (?)").execute(arguments: [name])
        return db.lastInsertedRowID
    }

    /// Stores a reported fetch; nil when the same (user, app, start) was stored before.
    public func record(_ f: FetchReport, user: String, app: String) async throws -> VersionStep? {
        try await pool.write { db in
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
        try await pool.write { db in
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
        try await pool.write { db in
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
    public func version(user: String) async throws -> UserVersion {
        try await pool.read { db in
            UserVersion(hasEvents: try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE name = ?", arguments: [user]) != nil,
                        version: try Self.storedVersion(user: user, db))
        }
    }
}
