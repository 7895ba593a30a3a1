import FetchCore
@testable import FetchPostgres
import FetchPostgresTesting
import FetchStorage
@testable import FetchSQLite
import GRDB
import PostgresNIO
import Testing

/// Stores made when event ids were keyed by (tenant, id) keep every id through the migration to
/// ids keyed by user: each is still a duplicate for its user, and no one else's.
struct EventIDMigrationTests {
    /// What the stores hold before the migration: `a1` and `a2` sent for u1 and u2 of acme.
    static let oldIDs = [("acme", "a1", "acme/u1"), ("acme", "a2", "acme/u2")]

    /// After the migration: u1's `a1` and u2's `a2` add nothing, the same ids for the other
    /// user add one event each.
    static func expectMigrated(_ store: any ServiceStore) async throws {
        let results = try await store.appendGroup([[ServiceStoreTests.event("a1", minute: 1)],
                                                   [ServiceStoreTests.event("a2", user: "acme/u2", minute: 1)],
                                                   [ServiceStoreTests.event("a2", minute: 2),
                                                    ServiceStoreTests.event("a1", user: "acme/u2", minute: 2)]])
        #expect(try results.map { try $0.get().added.map { "\($0.user) \($0.id)" } }
                == [[], [], ["acme/u1 a2", "acme/u2 a1"]])
    }

    @Test func aSQLiteStoreKeepsItsIdsThroughTheMigration() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let path = dir.path + "/s.sqlite"
        let queue = try DatabaseQueue(path: path)
        try SQLiteStore.migrator.migrate(queue, upTo: "v5-versions")
        try await queue.write { db in
            for (tenant, id, user) in Self.oldIDs {
                try db.execute(sql: "INSERT INTO event_ids (tenant, id, user) VALUES (?, ?, ?)", arguments: [tenant, id, user])
            }
        }
        try queue.close()
        try await Self.expectMigrated(try SQLiteStore(path: path))
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aPostgreSQLStoreKeepsItsIdsThroughTheMigration() async throws {
        try await TestDatabase.withStore { store in
            // Back to the first schema's ids table, with ids in it, then migrated again.
            try await EventsUserIDMigrationTests.backToSchema3(store)
            try await store.transaction { conn in
                try await conn.query("DROP TABLE event_ids", logger: store.logger)
                for sql in PostgresStore.migrations[0] where sql.contains("event_ids") {
                    try await conn.query(PostgresQuery(unsafeSQL: sql), logger: store.logger)
                }
                for (tenant, id, user) in Self.oldIDs {
                    try await conn.query("INSERT INTO event_ids (tenant, id, user_name) VALUES (\(tenant), \(id), \(user))",
                                         logger: store.logger)
                }
                try await conn.query("DELETE FROM schema_version WHERE version > 1", logger: store.logger)
            }
            try await store.migrate()
            try await Self.expectMigrated(store)
        }
    }
}
