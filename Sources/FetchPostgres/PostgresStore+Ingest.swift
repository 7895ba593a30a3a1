import FetchCore
import FetchStorage
import Foundation
import NIOCore
import PostgresNIO

/// `fetchsched ingest` into PostgreSQL: logs streamed through `COPY` into a staging table, then
/// merged into the store in one transaction.
extension PostgresStore {
    /// Stores every event of `source` in one transaction: all of it, or nothing when a bad row
    /// stops the read. Rows already stored are left as they are (the same occurrence numbering
    /// as the SQLite driver, so a log ingested twice adds nothing).
    ///
    /// The rows go through `COPY … FROM STDIN` into a temporary table, and one `INSERT … SELECT …
    /// ON CONFLICT DO NOTHING` moves them: a statement per row would cost a round trip each.
    /// ``ingest(_:)``, then with `learn` the models of the users it stored events for learned
    /// again from the store, as the SQLite driver does.
    nonisolated(nonsending) public func ingest<S: UsageEventSource>(_ source: inout S, learn: Bool) async throws -> IngestStats {
        var stats = try await ingest(&source)
        if learn && stats.inserted > 0 { stats.learned = try await learnModels(users: source.users.names) }
        return stats
    }

    nonisolated(nonsending) public func ingest<S: UsageEventSource>(_ source: inout S) async throws -> IngestStats {
        try await client.withConnection { conn in
            try await conn.query("BEGIN", logger: logger)
            do {
                let stats = try await ingest(&source, conn)
                try await conn.query("COMMIT", logger: logger)
                return stats
            } catch {
                _ = try? await conn.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    nonisolated(nonsending) private func ingest<S: UsageEventSource>(_ source: inout S, _ conn: PostgresConnection) async throws -> IngestStats {
        var stats = IngestStats()
        try await conn.query("""
            CREATE TEMPORARY TABLE staging (user_name text, ts bigint, kind smallint, app_name text, value smallint,
                                            occurrence integer, utc_offset smallint, unix_form boolean) ON COMMIT DROP
            """, logger: logger)
        var occurrences = Occurrences()
        var failure: (any Error)?
        try await conn.copyFrom(table: "staging", logger: logger) { writer in
            var buffer = ByteBuffer()
            buffer.reserveCapacity(1 << 20)
            do {
                while let e = try source.next() {
                    Self.appendCopyRow(e, occurrence: occurrences.next(e), users: source.users, apps: source.apps, to: &buffer)
                    stats.read += 1
                    if buffer.readableBytes >= 1 << 20 {
                        try await writer.write(buffer)
                        buffer.clear()
                    }
                }
            } catch {
                failure = error
                throw error
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
        }
        if let failure { throw failure }
        // App ids in the order the source first named them, as the SQLite driver numbers them.
        _ = try await appIDs(for: source.apps.names, conn)
        try await conn.query("ANALYZE staging", logger: logger)
        stats.inserted = try await moveStaged(conn)
        try await conn.query("""
            INSERT INTO user_apps (user_name, app)
            SELECT DISTINCT s.user_name, a.id FROM staging s JOIN apps a ON a.name = s.app_name
            ON CONFLICT DO NOTHING
            """, logger: logger)
        // A service's memory of these users is stale now, whichever instance holds it.
        if stats.inserted > 0 {
            try await conn.query("""
                INSERT INTO user_versions (user_name, version)
                SELECT u, nextval('store_version') FROM unnest(\(source.users.names.sorted())::text[]) AS t(u) ORDER BY u
                ON CONFLICT (user_name) DO UPDATE SET version = EXCLUDED.version
                """, logger: logger)
        }
        return stats
    }

    /// Moves the staged rows the store does not hold into `events`; returns how many. An
    /// anti-join first: `ON CONFLICT` costs about twice as much per row. A row that a service
    /// instance stores between the check and the insert makes it fail; then the same move runs
    /// again with `ON CONFLICT DO NOTHING`, from a savepoint.
    private func moveStaged(_ conn: PostgresConnection) async throws -> Int {
        let select = """
            SELECT s.user_name, s.ts, s.kind, coalesce(a.id, 0) AS app, s.value, s.occurrence, s.utc_offset, s.unix_form
            FROM staging s LEFT JOIN apps a ON a.name = s.app_name
            """
        if try await lockEmptyEvents(conn) { return try await loadIntoEmptyEvents(conn, select) }
        try await conn.query("SAVEPOINT move", logger: logger)
        do {
            let n = try await count(conn, """
                WITH ins AS (
                    INSERT INTO events (user_name, ts, kind, app, value, occurrence, utc_offset, unix_form)
                    SELECT * FROM (\(select)) r WHERE NOT EXISTS (
                        SELECT 1 FROM events e WHERE e.user_name = r.user_name AND e.ts = r.ts AND e.kind = r.kind
                                                 AND e.app = r.app AND e.value = r.value AND e.occurrence = r.occurrence)
                    RETURNING 1)
                SELECT count(*) FROM ins
                """)
            try await conn.query("RELEASE SAVEPOINT move", logger: logger)
            return n
        } catch let e as PSQLError where e.serverInfo?[.sqlState] == "23505" {
            try await conn.query("ROLLBACK TO SAVEPOINT move", logger: logger)
            return try await count(conn, """
                WITH ins AS (
                    INSERT INTO events (user_name, ts, kind, app, value, occurrence, utc_offset, unix_form)
                    \(select) ON CONFLICT DO NOTHING RETURNING 1)
                SELECT count(*) FROM ins
                """)
        }
    }

    /// Whether the store holds no event yet; then `events` stays locked (ACCESS EXCLUSIVE) to the
    /// end of the transaction, so that no instance writes to it meanwhile. A store with events
    /// is not locked.
    private func lockEmptyEvents(_ conn: PostgresConnection) async throws -> Bool {
        let empty = "SELECT CASE WHEN EXISTS (SELECT 1 FROM events) THEN 0 ELSE 1 END"
        guard try await count(conn, empty) == 1 else { return false }
        try await conn.query("LOCK TABLE events IN ACCESS EXCLUSIVE MODE", logger: logger)
        return try await count(conn, empty) == 1  // an instance may have written before the lock
    }

    /// The first load of a store: the rows go in without the table's key, and the key is built
    /// once after them, by a sort, instead of a B-tree insert per row (the keyed insert was
    /// most of an ingest). Staged rows are distinct (``Occurrences``); were two not, adding
    /// the key fails and the whole ingest with it. All in the ingest's transaction: a failure
    /// leaves the table as it was, key included.
    private func loadIntoEmptyEvents(_ conn: PostgresConnection, _ select: String) async throws -> Int {
        try await conn.query("SET LOCAL maintenance_work_mem = '256MB'", logger: logger)
        try await conn.query("ALTER TABLE events DROP CONSTRAINT events_pkey", logger: logger)
        try await conn.query(PostgresQuery(unsafeSQL: """
            INSERT INTO events (user_name, ts, kind, app, value, occurrence, utc_offset, unix_form) \(select)
            """), logger: logger)
        try await conn.query("ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (user_name, ts, kind, app, value, occurrence)",
                             logger: logger)
        return try await count(conn, "SELECT count(*) FROM staging")
    }

    private func count(_ conn: PostgresConnection, _ sql: String) async throws -> Int {
        var n = 0
        for try await c in try await conn.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) { n = c }
        return n
    }

    /// One row of COPY's text format. Names are bounded by the reader and hold no control
    /// characters; a backslash is the one byte the format needs escaped.
    static func appendCopyRow(_ e: UsageEvent, occurrence: Int, users: NameTable, apps: NameTable, to buffer: inout ByteBuffer) {
        appendCopyText(users[e.user], to: &buffer)
        buffer.writeString("\t\(e.time.millis)\t\(e.kind.rawValue)\t")
        if e.app >= 0 { appendCopyText(apps[e.app], to: &buffer) } else { buffer.writeString("\\N") }
        buffer.writeString("\t\(e.value)\t\(occurrence)\t\(e.offsetMinutes)\t\(e.unixForm ? "t" : "f")\n")
    }

    private static func appendCopyText(_ text: String, to buffer: inout ByteBuffer) {
        if text.utf8.contains(UInt8(ascii: "\\")) {
            buffer.writeString(text.replacingOccurrences(of: "\\", with: "\\\\"))
        } else {
            buffer.writeString(text)
        }
    }
}
