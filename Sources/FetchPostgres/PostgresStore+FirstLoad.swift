import FetchCore
import FetchStorage
import NIOCore
import PostgresNIO

/// The first ingest into a store with no events: the rows copied straight into `events`, with
/// no staging table and no key, and the key built once after them.
extension PostgresStore {
    /// Whether the store holds no event yet. Then `user_versions` (against writes and row locks),
    /// `apps` (against new rows) and `events` (against everything) stay locked to the end of the transaction, so that the
    /// ingest may number the users and apps itself and no instance writes meanwhile. A store
    /// with events is not locked.
    func lockEmptyStore(_ conn: PostgresConnection) async throws -> Bool {
        let empty = "SELECT CASE WHEN EXISTS (SELECT 1 FROM events) THEN 0 ELSE 1 END"
        guard try await count(conn, empty) == 1 else { return false }
        // A service's write first locks its users' version rows (a row lock, which only an
        // exclusive lock of the table holds off), then writes apps, events and, last, the version
        // rows. Holding `user_versions` so, the load waits for a write under way to commit, and a
        // write that comes after waits at its first statement, holding nothing the load needs:
        // a lock that let it past (SHARE ROW EXCLUSIVE) met it later on `apps`, both waiting.
        try await statement(conn, "LOCK TABLE user_versions IN EXCLUSIVE MODE")
        try await statement(conn, "LOCK TABLE apps IN SHARE ROW EXCLUSIVE MODE")
        try await statement(conn, "LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
        return try await count(conn, empty) == 1  // an instance may have written before the locks
    }

    /// Copies every event of `source` into the empty `events` (``lockEmptyStore(_:)``) and then
    /// builds the table's key, in the caller's transaction.
    ///
    /// Going through a staging table cost a second write of every row and a join on the user
    /// and app names; here the users and apps are numbered as the rows stream
    /// (``StoreNumbering``), and the rows are distinct (``Occurrences``): were two not, adding
    /// the key fails and the ingest with it.
    /// A failure anywhere leaves the tables as they were, key included.
    ///
    /// Every user is new to the store, so `learner`, when given, learns each one's model from
    /// the rows as they go in (``IngestLearner``, with the store's app ids).
    nonisolated(nonsending) func firstLoad<S: UsageEventSource>(_ source: inout S, _ conn: PostgresConnection,
                                                              learner: inout AsyncLearnerQueue?) async throws -> IngestStats {
        try await withoutEventsKey(conn) { try await copyIntoEvents(&source, conn, learner: &learner) }
    }

    /// The rows of ``firstLoad(_:_:learner:)``, copied into `events` with the apps they name.
    nonisolated(nonsending) private func copyIntoEvents<S: UsageEventSource>(_ source: inout S, _ conn: PostgresConnection,
                                                                            learner: inout AsyncLearnerQueue?) async throws -> IngestStats {
        var appNumbering = StoreNumbering(of: "app", stored: try await stored(conn, "SELECT id, name FROM apps"),
                                          next: Int32(try await count(conn, "SELECT nextval(pg_get_serial_sequence('apps', 'id'))")))
        var userNumbering = StoreNumbering(of: "user", stored: try await stored(conn, "SELECT id, user_name FROM user_versions"),
                                           next: Int32(try await count(conn, "SELECT nextval(pg_get_serial_sequence('user_versions', 'id'))")))
        var pairs = Set<Int64>()  // user index << 32 | app id
        var stats = IngestStats()
        let columns = ["user_id", "ts", "kind", "app", "value", "occurrence", "utc_offset", "unix_form"]
        stats.read = try await copyRows(&source, into: "events", columns: columns, conn) { e, occurrence, users, apps, buffer in
            let app = e.app >= 0 ? try appNumbering.id(of: e.app, in: apps) : 0
            let user = try userNumbering.id(of: e.user, in: users)
            if e.app >= 0 { pairs.insert(Int64(e.user) << 32 | Int64(app)) }
            learner?.observe(e, app: Int64(app))
            Self.appendCopyRow(e, occurrence: occurrence, to: &buffer) {
                Self.appendDecimal(Int64(user), to: &$0)
            } app: {
                Self.appendDecimal(Int64(app), to: &$0)
            }
        } written: {
            await learner?.room()  // the learner no more than a few batches behind the copy
        }
        try await storeNumbered(appNumbering.added, conn)
        try await storeNumbered(users: userNumbering.added, conn)
        let users = source.users
        let sorted = pairs.sorted()
        try await statement(conn, """
            INSERT INTO user_apps (user_name, app)
            SELECT * FROM unnest(\(sorted.map { users[Int32($0 >> 32)] })::text[], \(sorted.map { Int32(truncatingIfNeeded: $0) })::int4[])
            """)
        stats.inserted = stats.read
        return stats
    }

    /// Runs `body` with `events` locked and without its key, then builds the key again by one
    /// sort of every row. All in the caller's transaction: a failure, or rows that are not
    /// distinct, leave the table as it was, key included.
    nonisolated(nonsending) func withoutEventsKey<T>(_ conn: PostgresConnection,
                                                   _ body: () async throws -> T) async throws -> T {
        try await statement(conn, "LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
        // Memory for the key's sort, and for the hash of the stored rows a move checks against.
        try await statement(conn, "SET LOCAL maintenance_work_mem = '256MB'")
        try await statement(conn, "SET LOCAL work_mem = '256MB'")
        try await statement(conn, "SET LOCAL enable_mergejoin = off")
        try await statement(conn, "SET LOCAL jit = off")
        try await statement(conn, "ALTER TABLE events DROP CONSTRAINT events_pkey")
        let result = try await body()
        try await statement(conn, "ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (user_id, ts, kind, app, value, occurrence)")
        return result
    }

    /// Whether `staged` rows are at least twice as many as `events` holds: then the move
    /// without the key (checked against a hash of the stored rows) and the key built again over
    /// every row cost clearly less than a keyed insert of each staged row; with as many rows
    /// staged as stored the two cost about the same, and the keyed insert takes no lock.
    /// Counted no further than half the rows staged, so the count costs less than they do.
    func outnumbersStore(_ staged: Int, _ conn: PostgresConnection) async throws -> Bool {
        let half = staged / 2
        return try await count(conn, "SELECT count(*) FROM (SELECT 1 FROM events LIMIT \(half + 1)) t") <= half
    }

    /// The ids by name that `sql` (id, then name) reads.
    private func stored(_ conn: PostgresConnection, _ sql: String) async throws -> [String: Int32] {
        let logger = logger
        return try await watched(conn) { conn in
            var stored: [String: Int32] = [:]
            for try await (id, name) in try await conn.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode((Int32, String).self) {
                stored[name] = id
            }
            return stored
        }
    }

    /// Adds the apps the load numbered, and moves the ids' sequence past them.
    private func storeNumbered(_ added: [(id: Int32, name: String)], _ conn: PostgresConnection) async throws {
        guard let last = added.last?.id else { return }
        try await statement(conn, """
            INSERT INTO apps (id, name) SELECT * FROM unnest(\(added.map(\.id))::int4[], \(added.map(\.name))::text[])
            """)
        try await statement(conn, "SELECT setval(pg_get_serial_sequence('apps', 'id'), \(last))")
    }

    /// Adds the users the load numbered, at version 0 (the ingest moves every user's version
    /// after), and moves the ids' sequence past them.
    private func storeNumbered(users added: [(id: Int32, name: String)], _ conn: PostgresConnection) async throws {
        guard let last = added.last?.id else { return }
        try await statement(conn, """
            INSERT INTO user_versions (id, user_name, version)
            SELECT i, n, 0 FROM unnest(\(added.map(\.id))::int4[], \(added.map(\.name))::text[]) AS t(i, n)
            """)
        try await statement(conn, "SELECT setval(pg_get_serial_sequence('user_versions', 'id'), \(last))")
    }
}

/// The store's id of each app (or user) a log names, numbered as the rows stream: a name the
/// store has keeps its id, and new names take the next ids in the order the log first names
/// them (as the SQLite driver numbers them). The caller holds the table locked against other
/// writers.
struct StoreNumbering {
    /// What is numbered, for messages: "app" or "user".
    let noun: String
    let stored: [String: Int32]
    var next: Int32
    /// Ids by the log's own app index, filled as the log names them.
    private var ids: [Int32] = []
    /// The names the store did not have, with the ids given them, in order.
    private(set) var added: [(id: Int32, name: String)] = []

    init(of noun: String, stored: [String: Int32], next: Int32) {
        self.noun = noun
        self.stored = stored
        self.next = next
    }

    mutating func id(of index: Int32, in names: NameTable) throws -> Int32 {
        while ids.count <= Int(index) {
            let name = names[Int32(ids.count)]
            if let id = stored[name] {
                ids.append(id)
            } else {
                guard next < Int32.max else { throw InputError("the store has no \(noun) id left for '\(name)'") }
                ids.append(next)
                added.append((next, name))
                next += 1
            }
        }
        return ids[Int(index)]
    }
}
