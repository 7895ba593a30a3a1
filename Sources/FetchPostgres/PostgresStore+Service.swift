import FetchCore
import FetchStore
import PostgresNIO

/// What the HTTP service writes, with the same promises as the SQLite driver (``ServiceStore``).
extension PostgresStore {
    /// Appends several batches in one transaction, each in a savepoint: all or nothing per
    /// batch. Event ids are claimed by `INSERT … ON CONFLICT DO NOTHING RETURNING`, so the same
    /// retry arriving at two instances at once is stored once. The users' version rows are
    /// locked first, in name order, so that two instances' groups queue instead of deadlocking.
    public func appendGroup(_ batches: [(events: [IdentifiedEvent], tenant: String)]) async throws -> [Result<AppendOutcome, any Error>] {
        let users = Set(batches.flatMap { $0.events.map(\.user) }).sorted()
        return try await transaction { conn in
            try await conn.query("""
                SELECT 1 FROM user_versions WHERE user_name = ANY(\(users)) ORDER BY user_name FOR UPDATE
                """, logger: logger)
            var results: [Result<AppendOutcome, any Error>] = []
            for (events, tenant) in batches {
                try await conn.query("SAVEPOINT batch", logger: logger)
                do {
                    let outcome = try await insert(events, tenant: tenant, conn)
                    try await conn.query("RELEASE SAVEPOINT batch", logger: logger)
                    results.append(.success(outcome))
                } catch where !Self.isRetryable(error) {
                    try await conn.query("ROLLBACK TO SAVEPOINT batch", logger: logger)
                    results.append(.failure(InputError("the batch was not stored: \(Self.describe(error))")))
                }
            }
            return results
        }
    }

    private func insert(_ batch: [IdentifiedEvent], tenant: String, _ conn: PostgresConnection) async throws -> AppendOutcome {
        var claimed = Set<String>()
        for try await id in try await conn.query("""
            INSERT INTO event_ids (tenant, id, user_name)
            SELECT \(tenant), i, u FROM unnest(\(batch.map(\.id))::text[], \(batch.map(\.user))::text[]) AS t(i, u)
            ON CONFLICT DO NOTHING RETURNING id
            """, logger: logger).decode(String.self) {
            claimed.insert(id)
        }
        // The first item with a claimed id is the one stored (a batch may repeat an id).
        let added = batch.filter { claimed.remove($0.id) != nil }
        guard !added.isEmpty else { return AppendOutcome(added: [], steps: [:]) }
        let appIDs = try await appIDs(for: added.filter { $0.event.app >= 0 }.map(\.appName), conn)
        let events = added.map(\.event)
        try await conn.query("""
            INSERT INTO events (user_name, ts, kind, app, value, occurrence, utc_offset, unix_form)
            SELECT u, ts, k, a, v,
                   (SELECT count(*) FROM events e WHERE e.user_name = t.u AND e.ts = t.ts AND e.kind = t.k AND e.app = t.a AND e.value = t.v)
                     + row_number() OVER (PARTITION BY u, ts, k, a, v ORDER BY n) - 1,
                   o, f
            FROM unnest(\(added.map(\.user))::text[], \(events.map(\.time.millis))::int8[],
                        \(events.map { Int16($0.kind.rawValue) })::int2[],
                        \(added.map { $0.event.app < 0 ? 0 : appIDs[$0.appName] ?? 0 })::int4[],
                        \(events.map(\.value))::int2[], \(events.map(\.offsetMinutes))::int2[], \(events.map(\.unixForm))::bool[])
                 WITH ORDINALITY AS t(u, ts, k, a, v, o, f, n)
            """, logger: logger)
        let pairs = Set(added.filter { $0.event.app >= 0 }.map { [$0.user, $0.appName] })
        try await conn.query("""
            INSERT INTO user_apps (user_name, app)
            SELECT u, a FROM unnest(\(pairs.map { $0[0] })::text[], \(pairs.map { Int32(appIDs[$0[1]] ?? 0) })::int4[]) AS t(u, a)
            ON CONFLICT DO NOTHING
            """, logger: logger)
        var steps: [String: VersionStep] = [:]
        for user in Set(added.map(\.user)).sorted() { steps[user] = try await bumpVersion(user, conn) }
        return AppendOutcome(added: added, steps: steps)
    }

    /// The ids of these app names, adding the names the store does not have yet, in the order
    /// first given (as the SQLite driver numbers them).
    func appIDs(for names: [String], _ conn: PostgresConnection) async throws -> [String: Int32] {
        var seen = Set<String>()
        let ordered = names.filter { seen.insert($0).inserted }
        guard !ordered.isEmpty else { return [:] }
        try await conn.query("""
            INSERT INTO apps (name) SELECT n FROM unnest(\(ordered)::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i
            ON CONFLICT (name) DO NOTHING
            """, logger: logger)
        var ids: [String: Int32] = [:]
        for try await (id, name) in try await conn.query("SELECT id, name FROM apps WHERE name = ANY(\(ordered))", logger: logger)
            .decode((Int32, String).self) {
            ids[name] = id
        }
        return ids
    }

    /// Moves `user`'s version to the next value of the store's sequence, in the caller's
    /// transaction; the row stays locked until it ends.
    func bumpVersion(_ user: String, _ conn: PostgresConnection) async throws -> VersionStep {
        var before: Int64 = 0
        for try await v in try await conn.query("SELECT version FROM user_versions WHERE user_name = \(user) FOR UPDATE",
                                                logger: logger).decode(Int64.self) {
            before = v
        }
        var after: Int64 = 0
        for try await v in try await conn.query("""
            INSERT INTO user_versions (user_name, version) VALUES (\(user), nextval('store_version'))
            ON CONFLICT (user_name) DO UPDATE SET version = EXCLUDED.version RETURNING version
            """, logger: logger).decode(Int64.self) {
            after = v
        }
        return VersionStep(before: before, after: after)
    }

    /// Stores a reported fetch; nil when the same (user, app, start) was stored before.
    public func record(_ f: FetchReport, user: String, app: String) async throws -> VersionStep? {
        try await transaction { conn in
            let rows = try await conn.query("""
                INSERT INTO fetch_results (user_name, app, start, utc_offset, duration, bytes, network, result)
                VALUES (\(user), \(app), \(f.start.millis), \(f.offsetMinutes), \(f.durationMs), \(f.bytes),
                        \(Int16(f.network.rawValue)), \(f.result.rawValue))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger).collect()
            return rows.isEmpty ? nil : try await bumpVersion(user, conn)
        }
    }

    /// Sets the fetch interval of `app` for `user`.
    public func setInterval(_ interval: FetchInterval, user: String, app: String) async throws {
        try await transaction { conn in
            try await conn.query("""
                INSERT INTO intervals (user_name, app, fetch_interval) VALUES (\(user), \(app), \(interval.description))
                ON CONFLICT (user_name, app) DO UPDATE SET fetch_interval = EXCLUDED.fetch_interval
                """, logger: logger)
            _ = try await bumpVersion(user, conn)
        }
    }

    /// Forgets everything stored about `user`, in one transaction; returns the events removed.
    /// App names that only this user used go too.
    public func deleteUser(_ user: String) async throws -> Int {
        try await transaction { conn in
            var removed = 0
            for try await n in try await conn.query("""
                WITH d AS (DELETE FROM events WHERE user_name = \(user) RETURNING 1) SELECT count(*) FROM d
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
            for table in ["event_ids", "intervals", "fetch_results", "models", "user_versions"] {
                try await conn.query("DELETE FROM \(unescaped: table) WHERE user_name = \(user)", logger: logger)
            }
            return removed
        }
    }

    /// Whether the store has any event of `user`, and the user's version: one round trip.
    public func version(user: String) async throws -> UserVersion {
        var state = UserVersion(hasEvents: false, version: 0)
        for try await (v, has) in try await client.query("""
            SELECT (SELECT version FROM user_versions WHERE user_name = \(user)),
                   EXISTS (SELECT 1 FROM events WHERE user_name = \(user))
            """, logger: logger).decode((Int64?, Bool).self) {
            state = UserVersion(hasEvents: has, version: v ?? 0)
        }
        return state
    }

    /// The time of `user`'s last stored event, nil when there is none.
    public func lastEventTime(user: String) async throws -> Int64? {
        var last: Int64?
        for try await t in try await client.query("SELECT max(ts) FROM events WHERE user_name = \(user)", logger: logger)
            .decode(Int64?.self) {
            last = t
        }
        return last
    }
}
