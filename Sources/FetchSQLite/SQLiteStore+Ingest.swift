import FetchCore
import FetchStorage
import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// Stores every event of `source` in one transaction: all of it, or nothing when a bad row
    /// stops the read. Rows already stored are left as they are.
    ///
    /// Binds go straight to SQLite's statement handle, several rows per statement: GRDB's argument
    /// binding costs more per row on this hot path (the `ingest` benchmark shows it).
    ///
    /// Foreign keys are off for this transaction. With them on, SQLite writes every page a
    /// multi-row INSERT first touches to a statement journal, so that the statement can be undone
    /// alone; on a store larger than the page cache that is a page written per row. The key they
    /// guard holds by construction: every user id comes from `users`, read or added in this same
    /// transaction, which holds the write lock from its start.
    ///
    /// Temporary storage is on disk for the ingest, not in memory as for the service's writes:
    /// whatever SQLite spills there in a large transaction does not grow the process's memory.
    ///
    /// With `learn`, when rows were added, the usage model of every user in the source is learned
    /// again from all its stored events and stored in the same transaction. A user new to the
    /// store is learned from the rows as they go in (``IngestLearner``); the others from the
    /// store, each from its own range of the events' key.
    ///
    /// The events table is keyed by user first, so the rows go in user by user (``RowsByUser``),
    /// a bounded number at a time, not in the time order they come in.
    public func ingest<S: UsageEventSource>(_ source: inout S, learn: Bool = false) throws -> IngestStats {
        try ingest(&source, learn: learn, rowsHeld: Self.rowsHeld)
    }

    /// ``ingest(_:learn:)`` holding `rowsHeld` rows at a time (tests give out the rows in many runs).
    func ingest<S: UsageEventSource>(_ source: inout S, learn: Bool, rowsHeld: Int) throws -> IngestStats {
        var stats = IngestStats()
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF; PRAGMA temp_store = FILE")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON; \(Self.connectionSetup)") }
            try db.inTransaction(.immediate) {
                var learner = learn ? LearnerQueue() : nil
                var names = NameIDs(db: db)
                try Self.insert(&source, into: db, path: path, names: &names, learner: &learner, rowsHeld: rowsHeld, stats: &stats)
                if let learned = learner.take()?.finish(), stats.inserted > 0 {
                    stats.learned = try Self.learnModels(learned, source: source, db)
                }
                return .commit
            }
        }
        return stats
    }

    /// Stores the models learned while inserting, those of the users new to the store, and learns
    /// the others' from the store; returns how many users' models were stored. Learned out of
    /// order (``IngestLearner``), they are dropped and every user is learned from the store.
    private static func learnModels<S: UsageEventSource>(_ learned: (inOrder: Bool, models: [(user: Int32, model: UsageModel)]),
                                                         source: S, _ db: Database) throws -> Int {
        let fresh = learned.inOrder ? learned.models.map { (source.users[$0.user], $0.model) } : []
        try storeModels(fresh, apps: source.apps, db)
        let stored = Set(fresh.map(\.0))
        let others = source.users.names.filter { !stored.contains($0) }
        return fresh.count + (others.isEmpty ? 0 : try learnModels(users: others, db))
    }

    private static func insert<S: UsageEventSource>(_ source: inout S, into db: Database, path: String, names: inout NameIDs,
                                                    learner: inout LearnerQueue?, rowsHeld: Int, stats: inout IngestStats) throws {
        let many = try db.makeStatement(sql: Self.insertSQL(rows: Self.rowsPerInsert))
        let connection = db.sqliteConnection
        var occurrences = Occurrences()
        var pairs = Set<UInt64>()
        var held = RowsByUser(capacity: max(1, rowsHeld))
        func step(_ h: SQLiteStatement) throws {
            let rc = sqlite3_step(h)
            sqlite3_reset(h)
            guard rc == SQLITE_DONE else {
                throw InputError("store '\(path)': insert failed: \(String(cString: sqlite3_errmsg(connection)))")
            }
            stats.inserted += Int(sqlite3_changes(connection))
        }
        // Binds straight into the statements, rowsPerInsert rows a statement, the rest in one
        // statement of their own; no copy of the rows between.
        func drain() throws {
            let count = held.count, whole = count - count % Self.rowsPerInsert
            let rest = count == whole ? nil : try db.makeStatement(sql: Self.insertSQL(rows: count - whole))
            var i = 0
            try held.drain { user, r in
                let (h, slot) = i < whole ? (many.sqliteStatement, i % Self.rowsPerInsert) : (rest!.sqliteStatement, i - whole)
                let base = Int32(slot * 8)
                sqlite3_bind_int64(h, base + 1, r.ts)
                sqlite3_bind_int64(h, base + 2, user)
                sqlite3_bind_int64(h, base + 3, Int64(r.kind))
                sqlite3_bind_int64(h, base + 4, r.app)
                sqlite3_bind_int64(h, base + 5, Int64(r.value))
                sqlite3_bind_int64(h, base + 6, r.occurrence)
                sqlite3_bind_int64(h, base + 7, Int64(r.offset))
                sqlite3_bind_int64(h, base + 8, r.unixForm ? 1 : 0)
                i += 1
                if i <= whole ? i % Self.rowsPerInsert == 0 : i == count { try step(h) }
            }
        }
        while let e = try source.next() {
            let user = try names.user(e.user, source.users, db)
            let app = e.app < 0 ? 0 : try names.app(e.app, source.apps, db)
            if app != 0 { pairs.insert(UInt64(user) << 32 | UInt64(app)) }
            if names.isNew(e.user) { learner?.observe(e, app: app) }
            held.append(.init(ts: e.time.millis, app: app, occurrence: Int64(occurrences.next(e)), value: e.value,
                              offset: e.offsetMinutes, kind: e.kind.rawValue, unixForm: e.unixForm), user: user)
            stats.read += 1
            if held.isFull { try drain() }
        }
        try drain()
        try Self.recordUserApps(pairs.map { (Int64($0 >> 32), Int64($0 & 0xFFFF_FFFF)) }, db)
        // A service's memory of these users is stale now, whichever process holds it.
        if stats.inserted > 0 { for user in source.users.names { _ = try Self.bumpVersion(user, db) } }
    }

    /// Notes which apps each user has used (table `user_apps`).
    static func recordUserApps(_ pairs: some Sequence<(user: Int64, app: Int64)>, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO user_apps (user, app) VALUES (?, ?)")
        for (user, app) in pairs { try statement.execute(arguments: [user, app]) }
    }

    /// Rows per INSERT statement: one statement's fixed cost (VDBE setup, step, reset) is
    /// shared by many rows (measured: Benchmarks/ingest-vs-sqlite3.sh).
    static let rowsPerInsert = 64

    /// Row places held to go in user by user (``RowsByUser``): the ingest's memory for them is
    /// bounded by this, 32 bytes a place.
    static let rowsHeld = 1 << 21

    static func insertSQL(rows: Int) -> String {
        "INSERT OR IGNORE INTO events (ts, user, kind, app, value, occurrence, utcOffset, unixForm) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }
}

/// Maps a source's interned ids to the store's, adding names the store does not have yet.
struct NameIDs {
    private var users: [String: Int64] = [:]
    private var apps: [String: Int64] = [:]
    private var userIDs: [Int64] = []
    /// Per source user id: whether the store had no such user before.
    private var added: [Bool] = []
    private var appIDs: [Int64] = []

    init(db: Database) {
        users = Dictionary(uniqueKeysWithValues: (try? Row.fetchAll(db, sql: "SELECT name, id FROM users"))?.map { ($0[0] as String, $0[1] as Int64) } ?? [])
        apps = Dictionary(uniqueKeysWithValues: (try? Row.fetchAll(db, sql: "SELECT name, id FROM apps"))?.map { ($0[0] as String, $0[1] as Int64) } ?? [])
    }

    mutating func user(_ id: Int32, _ table: NameTable, _ db: Database) throws -> Int64 {
        if Int(id) < userIDs.count { return userIDs[Int(id)] }
        while userIDs.count <= Int(id) {
            let name = table[Int32(userIDs.count)]
            added.append(users[name] == nil)
            userIDs.append(try Self.id(name, in: "users", &users, db))
        }
        return userIDs[Int(id)]
    }

    /// Whether the user of source id `id` (already looked up) was added by this ingest.
    func isNew(_ id: Int32) -> Bool { added[Int(id)] }

    mutating func app(_ id: Int32, _ table: NameTable, _ db: Database) throws -> Int64 {
        if Int(id) < appIDs.count { return appIDs[Int(id)] }
        while appIDs.count <= Int(id) {
            appIDs.append(try Self.id(table[Int32(appIDs.count)], in: "apps", &apps, db))
        }
        return appIDs[Int(id)]
    }

    private static func id(_ name: String, in table: String, _ known: inout [String: Int64], _ db: Database) throws -> Int64 {
        if let id = known[name] { return id }
        try db.execute(sql: "INSERT INTO \(table) (name) VALUES (?)", arguments: [name])
        known[name] = db.lastInsertedRowID
        return db.lastInsertedRowID
    }
}
