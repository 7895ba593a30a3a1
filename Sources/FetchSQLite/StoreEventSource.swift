import FetchCore
import FetchStorage
import GRDB
import GRDBSQLite

/// The store's events, read straight off SQLite's statement: user by user in the table's key
/// order, each user's in time order, or in time order across users (ties in the order of the
/// users' ids), which SQLite sorts.
public struct StoreEventSource: UsageEventSource {
    public let users = NameTable()
    public let apps = NameTable()
    private let statement: Statement
    private var userIDs: [Int64: Int32] = [:]
    private var appIDs: [Int64: Int32] = [:]

    /// Reads every user's events, or one user's: then only that user's name and app names.
    /// `timeOrder` reads every user's in time order across users, not user by user.
    init(db: Database, user: String? = nil, timeOrder: Bool = false) throws {
        let (users, apps): (String, String) = user == nil
            ? ("SELECT id, name FROM users ORDER BY id", "SELECT id, name FROM apps ORDER BY id")
            : ("SELECT id, name FROM users WHERE name = ?1",
               "SELECT id, name FROM apps WHERE id IN (SELECT app FROM user_apps WHERE user = (SELECT id FROM users WHERE name = ?1)) ORDER BY id")
        let arguments: StatementArguments = user.map { [$0] } ?? []
        for row in try Row.fetchAll(db, sql: users, arguments: arguments) {
            userIDs[row[0]] = self.users.id(row[1] as String)
        }
        for row in try Row.fetchAll(db, sql: apps, arguments: arguments) {
            appIDs[row[0]] = self.apps.id(row[1] as String)
        }
        let filter = user == nil ? "" : "WHERE user = (SELECT id FROM users WHERE name = ?)"
        let order = timeOrder && user == nil ? "ts, user" : "user, ts"
        statement = try db.makeStatement(sql: """
            SELECT ts, user, kind, app, value, utcOffset, unixForm FROM events \(filter)
            ORDER BY \(order), kind, app, value, occurrence
            """)
        if let user { try statement.setArguments([user]) }
    }

    public mutating func next() throws -> UsageEvent? {
        let h = statement.sqliteStatement
        let rc = sqlite3_step(h)
        if rc == SQLITE_DONE { return nil }
        guard rc == SQLITE_ROW else { throw InputError("store read failed (SQLite code \(rc))") }
        guard let user = userIDs[sqlite3_column_int64(h, 1)] else { throw InputError("store holds an event it cannot read") }
        let appID = sqlite3_column_int64(h, 3)
        return try StoredRow.event(time: sqlite3_column_int64(h, 0), user: user, app: appID == 0 ? -1 : (appIDs[appID] ?? -1),
                                   kind: sqlite3_column_int64(h, 2), value: sqlite3_column_int64(h, 4),
                                   offset: sqlite3_column_int64(h, 5), unixForm: sqlite3_column_int64(h, 6) != 0, userName: users[user])
    }
}

extension SQLiteStore {
    public var location: String { path }

    /// The events user by user, or in time order across users with `timeOrder`, a batch at a
    /// time (``SQLiteEventBatches``), from one snapshot of the store.
    nonisolated(nonsending) public func withEventBatches<R>(timeOrder: Bool,
                                                            _ body: (inout any UsageEventBatches) async throws -> R) async throws -> R {
        let batches = try await SQLiteEventBatches(store: self, timeOrder: timeOrder)
        let result: Result<R, any Error>
        do {
            var any: any UsageEventBatches = batches
            result = .success(try await body(&any))
        } catch {
            result = .failure(error)
        }
        await batches.close()
        return try result.get()
    }

    /// Nothing to release: the pool's connections close with the store.
    public func close() async {}

    /// Calls `body` with the stored events: one user's, or every user's user by user, or with
    /// `timeOrder` in time order across users.
    public func withEvents<R>(user: String? = nil, timeOrder: Bool = false, _ body: (inout StoreEventSource) throws -> R) throws -> R {
        guard timeOrder && user == nil else {
            return try pool.read { db in
                var source = try StoreEventSource(db: db, user: user)
                return try body(&source)
            }
        }
        // A whole store sorted in memory would take memory as the store grows: its sort spills
        // to disk. The setting is the connection's, so it is put back before the pool has it again.
        return try pool.unsafeRead { db in
            try db.execute(sql: "PRAGMA temp_store = FILE")
            defer { try? db.execute(sql: SQLiteStore.connectionSetup) }
            var result: R?
            // One snapshot, as the pool's reads have.
            try db.inTransaction(.deferred) {
                var source = try StoreEventSource(db: db, timeOrder: true)
                result = try body(&source)
                return .commit
            }
            return result!
        }
    }
}
