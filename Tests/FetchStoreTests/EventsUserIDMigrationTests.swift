import FetchCore
@testable import FetchPostgres
import FetchPostgresTesting
import FetchStorage
import PostgresNIO
import Testing

/// A PostgreSQL store made when `events` was keyed by the user's name keeps every user's
/// history through migration 4, which keys the events by an integer id on the user's version
/// row, and takes writes after it as a store made new would.
struct EventsUserIDMigrationTests {
    /// Puts a migrated store back to the schema before migration 4, its rows as that schema
    /// held them: the events keyed by name, no ids on the version rows.
    static func backToSchema3(_ store: PostgresStore) async throws {
        try await store.transaction { conn in
            for sql in [
                """
                CREATE TABLE events_by_name AS
                SELECT v.user_name, e.ts, e.kind, e.app, e.value, e.occurrence, e.utc_offset, e.unix_form
                FROM events e JOIN user_versions v ON v.id = e.user_id
                """,
                "DROP TABLE events",
                "ALTER TABLE events_by_name RENAME TO events",
                "ALTER TABLE events ADD PRIMARY KEY (user_name, ts, kind, app, value, occurrence)",
                "ALTER TABLE user_versions DROP COLUMN id",
                "DELETE FROM schema_version WHERE version > 3",
            ] {
                try await conn.query(PostgresQuery(unsafeSQL: sql), logger: store.logger)
            }
        }
    }

    /// A history as text, with its version.
    static func text(_ h: UserHistory) -> String { ServiceStoreTests.text(h) + "\nversion \(h.version)" }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aStoreKeyedByNameKeepsEveryHistoryThroughTheMigration() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try await TestDatabase.withStore { store in
            let users = (0..<6).map { "u\($0)" }
            var source = try LogSource(paths: [dir.file("a.csv", FirstLoadTests.csv(FirstLoadTests.rows(900, users: 6, apps: 7)))])
            _ = try await store.ingest(&source)
            _ = try await store.appendGroup([[ServiceStoreTests.event("s1", user: "u2", minute: 3, app: "app1"),
                                              ServiceStoreTests.event("s2", user: "svc", minute: 4, app: "chat")]])[0].get()
            try await store.setInterval(.minimum, user: "u4", app: "app2")
            var before: [String: String] = [:]
            for user in users + ["svc"] { before[user] = Self.text(try await store.history(user: user)) }

            try await Self.backToSchema3(store)
            // A user with events and no version row: none should be, and the migration gives it one.
            try await store.transaction { conn in
                _ = try await conn.query("DELETE FROM user_versions WHERE user_name = 'u5'", logger: store.logger)
            }
            try await store.migrate()

            #expect(try await FirstLoadTests.keyColumns(store) == FirstLoadTests.key)
            for user in users + ["svc"] where user != "u5" {
                #expect(Self.text(try await store.history(user: user)) == before[user], "\(user)")
            }
            let u5 = try await store.history(user: "u5")
            #expect(u5.events.count == 150 && u5.version == 0)
            // Writes after it: an id the store has adds nothing, a new user takes an id of its own.
            let results = try await store.appendGroup([[ServiceStoreTests.event("s1", user: "u2", minute: 3, app: "app1")],
                                                       [ServiceStoreTests.event("n1", user: "new", minute: 5, app: "app1")]])
            #expect(try results.map { try $0.get().added.count } == [0, 1])
            #expect(try await store.history(user: "new").events.count == 1)
            let ids = try await FirstLoadTests.strings(store, "SELECT id::text FROM user_versions")
            #expect(ids.count == users.count + 2 && Set(ids).count == ids.count)
            #expect(try await store.deleteUser("u3") == 150)
            #expect(try await FirstLoadTests.strings(store, "SELECT count(*)::text FROM events") == ["\(900 + 2 + 1 - 150)"])
        }
    }
}
