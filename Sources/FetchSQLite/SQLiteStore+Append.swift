import FetchCore
import FetchStorage
import GRDB
import GRDBSQLite

/// The service's event writes: batches with client ids, in groups, on the single writer.
///
/// The statements run for every event (the id's claim, the event's insert) bind straight to
/// SQLite's statement handle, as ``ingest(_:)`` does: this runs on the one writer for every
/// request, and GRDB's argument arrays cost more than those statements themselves (perf under
/// `Benchmarks/load.sh`). Names are read only when the writer does not know them yet.
extension SQLiteStore {
    /// Appends a batch in one transaction: all of it or nothing. Events whose id their user
    /// already sent are skipped, so a retried batch adds nothing twice. Returns the events
    /// actually added, in batch order.
    public func append(_ batch: [IdentifiedEvent]) async throws -> [IdentifiedEvent] {
        try await appendGroup([batch])[0].get().added
    }

    /// Appends several batches in one transaction, each all or nothing (a savepoint each):
    /// group commit for concurrent requests. One commit for many batches, since the writer is
    /// single and each commit costs a WAL sync; a batch that fails leaves the others in.
    ///
    /// Names and pairs first seen by a batch join the writer's ``NameCache`` only once the
    /// transaction has committed, and only for the batches that stayed in.
    public func appendGroup(_ batches: [[IdentifiedEvent]]) async throws -> [Result<AppendOutcome, any Error>] {
        try await mappingFull { try await appendGroupUnmapped(batches) }
    }

    private func appendGroupUnmapped(_ batches: [[IdentifiedEvent]]) async throws -> [Result<AppendOutcome, any Error>] {
        try await pool.writeWithoutTransaction { db in
            try self.names.withLock { known in
                var fresh = NameCache()
                var results: [Result<AppendOutcome, any Error>] = []
                try db.inTransaction {
                    for events in batches {
                        var outcome = AppendOutcome(added: [], steps: [:])
                        var seen = NameCache()
                        do {
                            try db.inSavepoint {
                                outcome.added = try Self.insert(events, known: known, fresh: &seen, db)
                                for user in Set(outcome.added.map(\.user)).sorted() { outcome.steps[user] = try Self.bumpVersion(user, db) }
                                return .commit
                            }
                            fresh.absorb(seen)
                            results.append(.success(outcome))
                        } catch {
                            // An error SQLite meets by rolling back the whole transaction (a full disk)
                            // leaves nothing of the group: every batch fails with it.
                            if !db.isInsideTransaction { throw self.mapped(error) }
                            results.append(.failure(error))
                        }
                    }
                    return .commit
                }
                known.absorb(fresh)
                return results
            }
        }
    }

    /// Claims the batch's ids (``claim(_:_:)``), then inserts the events whose id was new, in
    /// batch order. Names not in `known` are read or added, and noted in `fresh`.
    private static func insert(_ batch: [IdentifiedEvent], known: NameCache, fresh: inout NameCache,
                               _ db: Database) throws -> [IdentifiedEvent] {
        let claimed = try claim(batch, db)
        guard claimed.contains(true) else { return [] }
        var added: [IdentifiedEvent] = []
        added.reserveCapacity(batch.count)
        let insert = try db.cachedStatement(sql: """
            INSERT INTO events (ts, user, kind, app, value, occurrence, utcOffset, unixForm)
            VALUES (?1, ?2, ?3, ?4, ?5,
                    (SELECT count(*) FROM events WHERE ts = ?1 AND user = ?2 AND kind = ?3 AND app = ?4 AND value = ?5),
                    ?6, ?7)
            """)
        let h = insert.sqliteStatement
        for (item, isNew) in zip(batch, claimed) where isNew {
            let user = try known.user(item.user) ?? fresh.user(item.user) ?? newID(item.user, in: "users", db) { fresh.addUser($0, $1) }
            let e = item.event
            var app: Int64 = 0
            if e.app >= 0 {
                app = try known.app(item.appName) ?? fresh.app(item.appName) ?? newID(item.appName, in: "apps", db) { fresh.addApp($0, $1) }
                let pair = NameCache.UserApp(user: user, app: app)
                if !known.contains(pair), !fresh.contains(pair) {
                    try recordUserApps([(user, app)], db)
                    fresh.addPair(pair)
                }
            }
            sqlite3_bind_int64(h, 1, e.time.millis)
            sqlite3_bind_int64(h, 2, user)
            sqlite3_bind_int64(h, 3, Int64(e.kind.rawValue))
            sqlite3_bind_int64(h, 4, app)
            sqlite3_bind_int64(h, 5, Int64(e.value))
            sqlite3_bind_int64(h, 6, Int64(e.offsetMinutes))
            sqlite3_bind_int64(h, 7, e.unixForm ? 1 : 0)
            try stepToEnd(h, db)
            added.append(item)
        }
        return added
    }

    /// Claims the ids of `batch` for their users (stored names, which carry the tenant); returns,
    /// in batch order, whether each was new. An id sent twice for a user in one batch is claimed
    /// once, by its first event. One single-row insert per id, whose change count says whether
    /// the id was new: no read before it, and the writer is single, so nothing comes between the
    /// insert and its count.
    private static func claim(_ batch: [IdentifiedEvent], _ db: Database) throws -> [Bool] {
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO event_ids (user, id) VALUES (?, ?)")
        let h = statement.sqliteStatement
        return try batch.map { item in
            try bind(item.user, h, 1, db)
            try bind(item.id, h, 2, db)
            try stepToEnd(h, db)
            return sqlite3_changes(db.sqliteConnection) > 0
        }
    }

    /// The id of `name` in `table` (users or apps), added when the table does not have it;
    /// `note` hears the name and its id.
    private static func newID(_ name: String, in table: String, _ db: Database,
                              note: (String, Int64) -> Void) throws -> Int64 {
        let find = try db.cachedStatement(sql: "SELECT id FROM \(table) WHERE name = ?")
        let id: Int64
        if let stored = try Int64.fetchOne(find, arguments: [name]) {
            id = stored
        } else {
            try db.cachedStatement(sql: "INSERT INTO \(table) (name) VALUES (?)").execute(arguments: [name])
            id = db.lastInsertedRowID
        }
        note(name, id)
        return id
    }

    /// Binds `value` to parameter `index` of the statement handle `h`.
    private static func bind(_ value: String, _ h: SQLiteStatement, _ index: CInt, _ db: Database) throws {
        let rc = value.bind(to: h, at: index)
        guard rc == SQLITE_OK else { throw sqliteError(rc, db) }
    }

    /// Steps the statement handle `h` to its end and resets it for the next binds.
    private static func stepToEnd(_ h: SQLiteStatement, _ db: Database) throws {
        let rc = sqlite3_step(h)
        sqlite3_reset(h)
        guard rc == SQLITE_DONE else { throw sqliteError(rc, db) }
    }

    private static func sqliteError(_ rc: CInt, _ db: Database) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }
}
