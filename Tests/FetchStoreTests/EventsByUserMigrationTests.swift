import FetchBench
import FetchCore
import FetchStorage
@testable import FetchSQLite
import FetchTesting
import GRDB
import Testing

/// SQLite stores made when events were keyed by time first keep every event through the
/// migration to events keyed by user first, and read back as a store made since.
struct EventsByUserMigrationTests {
    static func rows(_ db: Database, _ table: String, order: String) throws -> [[DatabaseValue]] {
        try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(order)").map { Array($0.databaseValues) }
    }

    @Test(arguments: [(3, 2, UInt64(6)), (7, 3, UInt64(21))])
    func aStoreKeyedByTimeKeepsEveryEventThroughTheMigration(users: Int, days: Int, seed: UInt64) throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        // Identical rows at one instant: their occurrences must survive the copy.
        let log = dir.file("g.csv", SyntheticLog.csv(users: users, days: days, seed: seed)
                           + "2025-03-01T08:00:00Z,user-0001,com.example.news,open,\n"
                           + "2025-03-01T08:00:00Z,user-0001,com.example.news,open,\n")
        let made = try SQLiteStore(path: dir.path + "/made.sqlite")
        var source = try LogSource(paths: [log])
        _ = try made.ingest(&source)
        let (users, apps, userApps, events) = try made.pool.read { db in
            (try Self.rows(db, "users", order: "id"), try Self.rows(db, "apps", order: "id"), try Self.rows(db, "user_apps", order: "user, app"),
             try Self.rows(db, "events", order: "ts, user, kind, app, value, occurrence"))
        }
        #expect(events.count > 100)

        // The same rows in a store of the layout before, then opened by this version.
        let path = dir.path + "/old.sqlite"
        let queue = try DatabaseQueue(path: path)
        try SQLiteStore.migrator.migrate(queue, upTo: "v6-event-ids-by-user")
        try queue.write { db in
            for row in users { try db.execute(sql: "INSERT INTO users VALUES (?, ?)", arguments: StatementArguments(row)) }
            for row in apps { try db.execute(sql: "INSERT INTO apps VALUES (?, ?)", arguments: StatementArguments(row)) }
            for row in userApps { try db.execute(sql: "INSERT INTO user_apps VALUES (?, ?)", arguments: StatementArguments(row)) }
            for row in events.reversed() {
                try db.execute(sql: "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", arguments: StatementArguments(row))
            }
        }
        try queue.close()
        let migrated = try SQLiteStore(path: path)
        let after = try migrated.pool.read { db in
            (try Self.rows(db, "events", order: "ts, user, kind, app, value, occurrence"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'events' AND type = 'index' AND sql IS NOT NULL"),
             try String.fetchOne(db, sql: "PRAGMA integrity_check"))
        }
        #expect(after.0 == events)
        #expect(after.1.isEmpty)
        #expect(after.2 == "ok")
        func read(_ store: SQLiteStore, timeOrder: Bool) throws -> [UsageEvent] {
            try store.withEvents(timeOrder: timeOrder) { s in
                var out: [UsageEvent] = []
                while let e = try s.next() { out.append(e) }
                return out
            }
        }
        for timeOrder in [false, true] { #expect(try read(migrated, timeOrder: timeOrder) == read(made, timeOrder: timeOrder)) }
        #expect(try migrated.history(user: "user-0001").events == made.history(user: "user-0001").events)
    }
}
