import FetchCore
import FetchStorage
import Foundation
import NIOCore
import PostgresNIO

/// `fetchsched ingest` into PostgreSQL: logs streamed through `COPY`, straight into `events`
/// when the store has none (``firstLoad(_:_:learner:)``), else into a staging table and merged from it,
/// in one transaction.
extension PostgresStore {
    /// Stores every event of `source` in one transaction: all of it, or nothing when a bad row
    /// stops the read. Rows already stored are left as they are (the same occurrence numbering
    /// as the SQLite driver, so a log ingested twice adds nothing).
    ///
    /// The rows go through `COPY … FROM STDIN` (a statement per row would cost a round trip
    /// each). ``ingest(_:)``, then with `learn` the models of the users it stored events for learned
    /// again from the store, as the SQLite driver does.
    ///
    /// A first load learns the models from the rows as they go in, on another core
    /// (``AsyncLearnerQueue``), rather than reading every event back after the commit.
    nonisolated(nonsending) public func ingest<S: UsageEventSource>(_ source: inout S, learn: Bool) async throws -> IngestStats {
        var learner: AsyncLearnerQueue? = learn ? AsyncLearnerQueue() : nil
        var stats = try await ingest(&source, learner: &learner)
        guard learn && stats.inserted > 0 else { return stats }
        if let learned = await learner.take()?.finish(), learned.inOrder {
            let models = learned.models.map { (user: source.users[$0.user], model: $0.model) }
            for start in stride(from: 0, to: models.count, by: 1_000) {
                try await saveModels(Array(models[start..<min(models.count, start + 1_000)]), apps: source.apps)
            }
            stats.learned = models.count
        } else {
            stats.learned = try await learnModels(users: source.users.names)
        }
        return stats
    }

    nonisolated(nonsending) public func ingest<S: UsageEventSource>(_ source: inout S) async throws -> IngestStats {
        var learner: AsyncLearnerQueue? = nil
        return try await ingest(&source, learner: &learner)
    }

    /// The ingest in one transaction; a first load feeds `learner`, any other ingest sets it to nil.
    nonisolated(nonsending) private func ingest<S: UsageEventSource>(_ source: inout S,
                                                                    learner: inout AsyncLearnerQueue?) async throws -> IngestStats {
        do {
            return try await client.withConnection { conn in
                try await statement(conn, "BEGIN")
                do {
                    let stats = try await ingest(&source, conn, learner: &learner)
                    try await statement(conn, "COMMIT")
                    return stats
                } catch {
                    // As ``rollBack(_:logger:)`` does, but watched as the ingest's other statements are.
                    if !conn.isClosed { try? await statement(conn, "ROLLBACK") }
                    throw error
                }
            }
        } catch {
            throw mapped(error)
        }
    }

    nonisolated(nonsending) private func ingest<S: UsageEventSource>(_ source: inout S, _ conn: PostgresConnection,
                                                                    learner: inout AsyncLearnerQueue?) async throws -> IngestStats {
        let stats: IngestStats
        if try await lockEmptyStore(conn) {
            stats = try await firstLoad(&source, conn, learner: &learner)
        } else {
            learner = nil
            stats = try await ingestStaged(&source, conn)
        }
        // A service's memory of these users is stale now, whichever instance holds it.
        if stats.inserted > 0 {
            let names = source.users.names
            try await watched(conn) { conn in
                try await self.lockVersions(names, conn)  // in name order, as a service's writes lock them
                _ = try await self.bumpVersions(names, conn)
            }
        }
        return stats
    }

    /// Into a store that has events: the rows staged, then moved past the key.
    nonisolated(nonsending) private func ingestStaged<S: UsageEventSource>(_ source: inout S,
                                                                          _ conn: PostgresConnection) async throws -> IngestStats {
        var stats = IngestStats()
        try await statement(conn, """
            CREATE TEMPORARY TABLE staging (user_name text, ts bigint, kind smallint, app_name text, value smallint,
                                            occurrence integer, utc_offset smallint, unix_form boolean) ON COMMIT DROP
            """)
        stats.read = try await copyRows(&source, into: "staging", conn) { e, occurrence, users, apps, buffer in
            Self.appendCopyRow(e, occurrence: occurrence, to: &buffer) { Self.appendCopyText(users[e.user], to: &$0) } app: {
                if e.app >= 0 { Self.appendCopyText(apps[e.app], to: &$0) } else { $0.writeString("\\N") }
            }
        }
        // Every user a version row, held against deletion to the end, so that the staged rows
        // find their users' ids and no deletion of one of them runs in between.
        let (users, apps) = (source.users.names, source.apps.names)
        try await watched(conn) { conn in
            try await self.lockVersions(users, conn, .keyShare)
            // App ids in the order the source first named them, as the SQLite driver numbers them.
            try await self.addApps(apps, conn)
        }
        try await statement(conn, "ANALYZE staging")
        stats.inserted = try await moveStaged(conn, staged: stats.read)
        try await statement(conn, """
            INSERT INTO user_apps (user_name, app)
            SELECT DISTINCT s.user_name, a.id FROM staging s JOIN apps a ON a.name = s.app_name
            ON CONFLICT DO NOTHING
            """)
        return stats
    }

    /// Moves the staged rows the store does not hold into `events`; returns how many. An
    /// anti-join first: `ON CONFLICT` costs about twice as much per row. A row that a service
    /// instance stores between the check and the insert makes it fail; then the same move runs
    /// again with `ON CONFLICT DO NOTHING`, from a savepoint.
    ///
    /// When the rows staged are at least twice as many as the store holds, the key is dropped for
    /// the move and built again after it (``withoutEventsKey(_:_:)``): a sort of every row
    /// costs less than a keyed insert of each new one.
    private func moveStaged(_ conn: PostgresConnection, staged: Int) async throws -> Int {
        let select = """
            SELECT v.id AS user_id, s.ts, s.kind, coalesce(a.id, 0) AS app, s.value, s.occurrence, s.utc_offset, s.unix_form
            FROM staging s JOIN user_versions v ON v.user_name = s.user_name LEFT JOIN apps a ON a.name = s.app_name
            """
        let absent = """
            SELECT * FROM (\(select)) r WHERE NOT EXISTS (
                SELECT 1 FROM events e WHERE e.user_id = r.user_id AND e.ts = r.ts AND e.kind = r.kind
                                         AND e.app = r.app AND e.value = r.value AND e.occurrence = r.occurrence)
            """
        if try await outnumbersStore(staged, conn) {
            return try await withoutEventsKey(conn) {
                try await count(conn, """
                    WITH ins AS (
                        INSERT INTO events (user_id, ts, kind, app, value, occurrence, utc_offset, unix_form) \(absent)
                        RETURNING 1)
                    SELECT count(*) FROM ins
                    """)
            }
        }
        try await statement(conn, "SAVEPOINT move")
        do {
            let n = try await count(conn, """
                WITH ins AS (
                    INSERT INTO events (user_id, ts, kind, app, value, occurrence, utc_offset, unix_form) \(absent)
                    RETURNING 1)
                SELECT count(*) FROM ins
                """)
            try await statement(conn, "RELEASE SAVEPOINT move")
            return n
        } catch let e as PSQLError where e.serverInfo?[.sqlState] == "23505" {
            try await statement(conn, "ROLLBACK TO SAVEPOINT move")
            return try await count(conn, """
                WITH ins AS (
                    INSERT INTO events (user_id, ts, kind, app, value, occurrence, utc_offset, unix_form)
                    \(select) ON CONFLICT DO NOTHING RETURNING 1)
                SELECT count(*) FROM ins
                """)
        }
    }

    /// The integer `sql` reads last (a count), as one of the ingest's statements (``watched(_:_:)``).
    func count(_ conn: PostgresConnection, _ sql: String) async throws -> Int {
        let logger = logger
        return try await watched(conn) { conn in
            var n = 0
            for try await c in try await conn.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) { n = c }
            return n
        }
    }

    /// Runs `query` on `conn` as one of the ingest's statements (``watched(_:_:)``).
    func statement(_ conn: PostgresConnection, _ query: PostgresQuery) async throws {
        let logger = logger
        try await watched(conn) { _ = try await $0.query(query, logger: logger) }
    }

    /// Runs `body`, statements on `conn` that the ingest sends between its rows' reads, bounded
    /// as a request is (``ConnectionCloseWatch``): a request's body runs in a task of its own and
    /// is watched whole, but the ingest's runs inline (its source is `inout`), so each of its
    /// statements is watched apart. A connection the server dropped after one answer would
    /// otherwise leave the next statement unanswered, and the ingest waiting, without end.
    /// Not within a request's own body: a watch is one per connection at a time.
    func watched<R: Sendable>(_ conn: PostgresConnection, _ body: @escaping @Sendable (PostgresConnection) async throws -> R) async throws -> R {
        let closed = closedUnderIngest
        return try await closeWatch.run(on: conn, grace: connectionWait, failure: { closed }) { try await body(conn) }
    }

    /// What an ingest whose connection closed under it fails with.
    var closedUnderIngest: StoreUnavailable {
        StoreUnavailable("the connection to '\(location)' closed before the ingest was done")
    }

    /// One row of COPY's text format: user, time, kind, app, value, occurrence, offset, form;
    /// its user and app columns written by `user` and `app`. Names are bounded by the reader and
    /// hold no control characters; a backslash is the one byte the format needs escaped.
    ///
    /// The numbers are written as digits straight into the buffer's room, two calls a row:
    /// string interpolation of each row, then a write of each field, were each a large part of
    /// the ingest's own time in profiles (`Benchmarks/ingest-vs-copy.sh`).
    @inline(__always)
    static func appendCopyRow(_ e: UsageEvent, occurrence: Int, to buffer: inout ByteBuffer,
                              user: (inout ByteBuffer) -> Void, app: (inout ByteBuffer) -> Void) {
        user(&buffer)
        DigitWriter.write(to: &buffer, room: 3 + 2 * DigitWriter.widest) { w in
            w.byte(DigitWriter.tab)
            w.decimal(e.time.millis)
            w.byte(DigitWriter.tab)
            w.decimal(Int64(e.kind.rawValue))
            w.byte(DigitWriter.tab)
        }
        app(&buffer)
        DigitWriter.write(to: &buffer, room: 6 + 3 * DigitWriter.widest) { w in
            w.byte(DigitWriter.tab)
            w.decimal(Int64(e.value))
            w.byte(DigitWriter.tab)
            w.decimal(Int64(occurrence))
            w.byte(DigitWriter.tab)
            w.decimal(Int64(e.offsetMinutes))
            w.byte(DigitWriter.tab)
            w.byte(e.unixForm ? UInt8(ascii: "t") : UInt8(ascii: "f"))
            w.byte(UInt8(ascii: "\n"))
        }
    }

    /// `value` in decimal digits, with a sign when negative, as `String(value)` writes it.
    static func appendDecimal(_ value: Int64, to buffer: inout ByteBuffer) {
        DigitWriter.write(to: &buffer, room: DigitWriter.widest) { $0.decimal(value) }
    }

    static func appendCopyText(_ text: String, to buffer: inout ByteBuffer) {
        if text.utf8.contains(UInt8(ascii: "\\")) {
            buffer.writeString(text.replacingOccurrences(of: "\\", with: "\\\\"))
        } else {
            buffer.writeString(text)
        }
    }

    /// Adds the app names the store does not have yet, in the order first given.
    func addApps(_ names: [String], _ conn: PostgresConnection) async throws {
        var seen = Set<String>()
        let ordered = names.filter { seen.insert($0).inserted }
        guard !ordered.isEmpty else { return }
        try await statement(conn, """
            INSERT INTO apps (name) SELECT n FROM unnest(\(ordered)::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i
            ON CONFLICT (name) DO NOTHING
            """)
    }
}
