import FetchCore
import FetchStorage
import PostgresNIO

/// What the HTTP service writes, with the same promises as the SQLite driver (``ServiceStore``).
extension PostgresStore {
    /// Appends several batches: the group in one call of a function in the database
    /// (``appendAtOnce(_:_:)``), its own transaction, or, should the database refuse that, in a
    /// transaction batch by batch, each in a savepoint: all or nothing per batch (a group of one
    /// batch needs no second try: its refusal is its failure). Event ids are claimed by `INSERT …
    /// ON CONFLICT DO NOTHING`, so the same retry arriving at two instances at once is stored
    /// once. The users' version rows are locked first, in name order, so that two instances'
    /// groups queue instead of deadlocking.
    public func appendGroup(_ batches: [[IdentifiedEvent]]) async throws -> [Result<AppendOutcome, any Error>] {
        do {
            // In a transaction of its own rather than as a statement that commits itself: a
            // database that stops answering is given up on within the wait, and a transaction
            // never committed is never stored (``withinDeadline(_:_:_:)``).
            return try await transaction(bounded: true) { [self] conn in try await appendAtOnce(batches, conn).map { .success($0) } }
        } catch let refused as AtOnceRefused {
            // A batch alone is all or nothing as it is: nothing of the call was kept, it failed.
            if batches.count == 1 { return [.failure(Self.notStored(refused.cause))] }
        }
        let users = Set(batches.flatMap { $0.map(\.user) }).sorted()
        return try await transaction(bounded: true) { [self] conn in
            try await lockVersions(users, conn)
            var results: [Result<AppendOutcome, any Error>] = []
            for events in batches {
                results.append(try await insertInSavepoint(events, conn))
            }
            return results
        }
    }

    /// One batch, all or nothing. A batch that met another instance's write on a key, or named
    /// an app another instance deleted meanwhile, fails the group, which is tried again afresh
    /// (``transaction(readOnly:_:)``).
    private func insertInSavepoint(_ events: [IdentifiedEvent], _ conn: PostgresConnection) async throws
        -> Result<AppendOutcome, any Error> {
        try await conn.query("SAVEPOINT batch", logger: logger)
        do {
            let outcome = try await appendAtOnce([events], conn)[0]
            try await conn.query("RELEASE SAVEPOINT batch", logger: logger)
            return .success(outcome)
        } catch let refused as AtOnceRefused {
            try await conn.query("ROLLBACK TO SAVEPOINT batch", logger: logger)
            return .failure(Self.notStored(refused.cause))
        }
    }

    /// A batch's failure, as its client is told.
    static func notStored(_ error: any Error) -> InputError {
        InputError("the batch was not stored: \(describe(error))")
    }

    /// Moves each user's version to a new value of the store's sequence, handed out in name
    /// order, in the caller's transaction. One statement: it reads the versions before, takes a
    /// value of the sequence for each user, and leaves each user at it. Every user has a version
    /// row already (``addUsers(_:_:)``); the caller holds the rows locked
    /// (``lockVersions(_:_:_:)``), so that the versions read are the latest.
    @discardableResult
    func bumpVersions(_ users: [String], _ conn: PostgresConnection) async throws -> [String: VersionStep] {
        let stepUsers = Array(Set(users)).sorted()
        var before: [String: Int64] = [:]
        var after: [Int64] = Array(repeating: 0, count: stepUsers.count)
        for try await (user, step, value) in try await conn.execute(StepVersions(stepUsers: stepUsers), logger: logger) {
            if step == 0 { before[user] = value } else { after[Int(step) - 1] = value }
        }
        return Dictionary(uniqueKeysWithValues: zip(stepUsers, after).map { user, value in
            (user, VersionStep(before: before[user] ?? 0, after: value))
        })
    }

    /// Gives each of these users a version row, at version 0 (what a missing row reads as)
    /// where it has none, with a new integer id. Only the missing rows are offered: an `INSERT`
    /// takes an id from the sequence for every row it offers, taken or not, and a write that
    /// offered every user its row would spend an id per user and write.
    func addUsers(_ users: [String], _ conn: PostgresConnection) async throws {
        try await conn.query("""
            INSERT INTO user_versions (user_name, version)
            SELECT u, 0 FROM unnest(\(users.sorted())::text[]) AS t(u)
            WHERE NOT EXISTS (SELECT 1 FROM user_versions v WHERE v.user_name = t.u) ORDER BY u
            ON CONFLICT (user_name) DO NOTHING
            """, logger: logger)
    }

    /// Locks the version rows of these users, in name order, until the transaction ends, and
    /// returns their integer ids (the key of their events): writes about one user queue, and two
    /// instances' transactions do not deadlock. A user not stored yet gets a row at version 0
    /// first (what a missing row reads as), so that two instances' first writes for a new user
    /// queue too instead of colliding on the events' key.
    ///
    /// A service's write takes `.noKeyUpdate`, which leaves the row's key alone: a CLI ingest
    /// holds the rows of its users against deletion with `.keyShare` without stopping those
    /// writes. The rows the store has are locked first, in one statement (the common case: one
    /// round trip); then the users without one are given a row, in name order, and locked. A row
    /// deleted while the lock waited for it is not locked; the user is given a row again and
    /// locked then, a few times at most. A writer waiting to add a row holds only rows the
    /// store had, which the writer it waits for has locked already or does not need; were two
    /// writers ever to deadlock, PostgreSQL ends one and it is tried again (``isRetryable(_:)``).
    @discardableResult
    func lockVersions(_ users: [String], _ conn: PostgresConnection, _ lock: RowLock = .noKeyUpdate) async throws -> [String: Int32] {
        var missing = users.sorted()
        var ids: [String: Int32] = [:]
        for attempt in 0..<8 where !missing.isEmpty {
            if attempt > 0 { try await addUsers(missing, conn) }
            let rows = switch lock {
            case .noKeyUpdate: try await conn.execute(LockVersionRows<NoKeyUpdate>(users: missing), logger: logger)
            case .keyShare: try await conn.execute(LockVersionRows<KeyShare>(users: missing), logger: logger)
            }
            for try await (user, id) in rows { ids[user] = id }
            missing.removeAll { ids[$0] != nil }
        }
        guard missing.isEmpty else { throw InputError("the version row of user '\(missing[0])' was deleted each time it was locked") }
        return ids
    }

    /// How ``lockVersions(_:_:_:)`` holds the rows.
    enum RowLock {
        /// A write about the user (``NoKeyUpdate``).
        case noKeyUpdate
        /// An ingest's hold (``KeyShare``).
        case keyShare
    }

    /// Stores a reported fetch; nil when the same (user, app, start) was stored before.
    public func record(_ f: FetchReport, user: String, app: String) async throws -> VersionStep? {
        try await transaction(bounded: true) { [self] conn in
            try await lockVersions([user], conn)
            let rows = try await conn.query("""
                INSERT INTO fetch_results (user_name, app, start, utc_offset, duration, bytes, network, result)
                VALUES (\(user), \(app), \(f.start.millis), \(f.offsetMinutes), \(f.durationMs), \(f.bytes),
                        \(Int16(f.network.rawValue)), \(f.result.rawValue))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger).collect()
            return rows.isEmpty ? nil : try await bumpVersions([user], conn)[user]
        }
    }

    /// Sets the fetch interval of `app` for `user`.
    public func setInterval(_ interval: FetchInterval, user: String, app: String) async throws {
        try await transaction(bounded: true) { [self] conn in
            try await lockVersions([user], conn)
            try await conn.query("""
                INSERT INTO intervals (user_name, app, fetch_interval) VALUES (\(user), \(app), \(interval.description))
                ON CONFLICT (user_name, app) DO UPDATE SET fetch_interval = EXCLUDED.fetch_interval
                """, logger: logger)
            try await bumpVersions([user], conn)
        }
    }

    /// Forgets everything stored about `user`, in one transaction; returns the events removed.
    /// App names that only this user used go too.
    public func deleteUser(_ user: String) async throws -> Int {
        try await transaction(bounded: true) { [self] conn in
            // Waits for a write about the user under way elsewhere, so that what it adds is
            // deleted too (each statement below sees it committed): the insert for a first write
            // of the user, the delete of the version row for any write holding it, a service's
            // or an ingest's (``lockVersions(_:_:_:)``). Nothing is locked before the delete, so
            // the wait cannot close a cycle with an ingest that moves the version at its end.
            try await addUsers([user], conn)
            var id: Int32 = 0
            for try await i in try await conn.query("DELETE FROM user_versions WHERE user_name = \(user) RETURNING id",
                                                    logger: logger).decode(Int32.self) {
                id = i
            }
            var removed = 0
            for try await n in try await conn.query("""
                WITH d AS (DELETE FROM events WHERE user_id = \(id) RETURNING 1) SELECT count(*) FROM d
                """, logger: logger).decode(Int.self) {
                removed = n
            }
            var apps: [Int32] = []
            for try await a in try await conn.query("DELETE FROM user_apps WHERE user_name = \(user) RETURNING app",
                                                    logger: logger).decode(Int32.self) {
                apps.append(a)
            }
            try await conn.query("""
                DELETE FROM apps a WHERE a.id = ANY(\(apps)) AND NOT EXISTS (SELECT 1 FROM user_apps u WHERE u.app = a.id)
                """, logger: logger)
            for table in ["event_ids", "intervals", "fetch_results", "models"] {
                try await conn.query("DELETE FROM \(unescaped: table) WHERE user_name = \(user)", logger: logger)
            }
            return removed
        }
    }

    /// Whether the store has any event of `user`, and the user's version: one round trip.
    public func version(user: String) async throws -> UserVersion {
        try await connection { [logger] conn in
            var state = UserVersion(hasEvents: false, version: 0)
            for try await (v, has) in try await conn.query("""
                SELECT version, EXISTS (SELECT 1 FROM events e WHERE e.user_id = v.id) FROM user_versions v WHERE user_name = \(user)
                """, logger: logger).decode((Int64, Bool).self) {
                state = UserVersion(hasEvents: has, version: v)
            }
            return state
        }
    }

    /// The time of `user`'s last stored event, nil when there is none.
    public func lastEventTime(user: String) async throws -> Int64? {
        try await connection { [logger] conn in
            var last: Int64?
            for try await t in try await conn.query("""
                SELECT max(ts) FROM events WHERE user_id = (SELECT id FROM user_versions WHERE user_name = \(user))
                """, logger: logger)
                .decode(Int64?.self) {
                last = t
            }
            return last
        }
    }

    /// Answers when the database does: one `SELECT 1` on a pooled connection.
    public func ready() async throws {
        try await connection { [logger] conn in _ = try await conn.query("SELECT 1", logger: logger) }
    }
}
