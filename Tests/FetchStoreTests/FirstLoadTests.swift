import FetchCore
@testable import FetchPostgres
import FetchPostgresTesting
import FetchStorage
import FetchSQLite
import Foundation
import PostgresNIO
import Testing

/// The first ingest into an empty PostgreSQL store copies the rows straight into `events`,
/// without the table's key, numbering the apps itself, and builds the key after them; a later
/// ingest goes through the key, unless its rows are at least twice the store's, when it builds
/// the key again.
struct FirstLoadTests {
    /// `events`' primary key: the user's integer id first.
    static let key = ["user_id", "ts", "kind", "app", "value", "occurrence"]

    static func keyColumns(_ pg: PostgresStore) async throws -> [String] {
        var columns: [String] = []
        for try await c in try await pg.client.query("""
            SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
            WHERE i.indrelid = 'events'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)
            """).decode(String.self) { columns.append(c) }
        return columns
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aFirstLoadKeepsIdenticalRowsApartAndLeavesTheKeyForTheNext() async throws {
        let db = try await TestDatabase.make()
        let dir = TempDir()
        defer { dir.cleanup() }
        let header = "timestamp,user,app,event,value\n"
        let twice = "2025-01-06T07:16:00Z,u1,news,open,\n"
        let first = dir.file("a.csv", header + twice + twice + "2025-01-06T07:17:00Z,u1,,battery,80\n")
        let second = dir.file("b.csv", header + twice + twice + twice + "2025-01-06T08:00:00Z,u2,mail,open,\n")
        let pg = try await db.patientStore()
        let key = Self.key
        var a = try LogSource(paths: [first])
        #expect(try await pg.ingest(&a).inserted == 3)
        #expect(try await Self.keyColumns(pg) == key)
        var again = try LogSource(paths: [first])
        #expect(try await pg.ingest(&again).inserted == 0)
        // The third identical open is new, and so is u2's: the store has events now, so through the key.
        var b = try LogSource(paths: [second])
        #expect(try await pg.ingest(&b).inserted == 2)
        #expect(try await Self.keyColumns(pg) == key)
        let lite = try SQLiteStore(path: dir.path + "/s.sqlite")
        for path in [first, second] {
            var s = try LogSource(paths: [path])
            _ = try lite.ingest(&s)
        }
        for user in ["u1", "u2"] {
            #expect(ServiceStoreTests.text(try await lite.history(user: user)) == ServiceStoreTests.text(try await pg.history(user: user)))
        }
        await pg.close()
        try await db.drop()
    }

    /// `count` opens a second apart from 07:00, the users and apps in turn.
    static func rows(_ count: Int, users: Int, apps: Int) -> [String] {
        (0..<count).map { "2025-01-06T07:\(String(format: "%02d:%02d", $0 / 60, $0 % 60))Z,u\($0 % users),app\($0 % apps),open," }
    }

    static func csv(_ rows: [String]) -> String { (["timestamp,user,app,event,value"] + rows).joined(separator: "\n") + "\n" }

    static func strings(_ pg: PostgresStore, _ sql: String) async throws -> [String] {
        var rows: [String] = []
        for try await r in try await pg.client.query(PostgresQuery(unsafeSQL: sql)).decode(String.self) { rows.append(r) }
        return rows
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aFirstLoadKeepsTheStoresAppIdsAndNumbersNewAppsAfterThemInTheOrderFirstNamed() async throws {
        let db = try await TestDatabase.make()
        let dir = TempDir()
        defer { dir.cleanup() }
        let pg = try await db.patientStore()
        // A name the store has with no events (its user's events are elsewhere), and ids burned past it;
        // the same for a user (an interval set, no events).
        _ = try await pg.client.query("INSERT INTO apps (name) VALUES ('mail')")
        _ = try await pg.client.query("SELECT nextval(pg_get_serial_sequence('apps', 'id')) FROM generate_series(1, 5)")
        try await pg.setInterval(.minimum, user: "u2", app: "mail")
        _ = try await pg.client.query("SELECT nextval(pg_get_serial_sequence('user_versions', 'id')) FROM generate_series(1, 3)")
        let log = dir.file("a.csv", """
            timestamp,user,app,event,value
            2025-01-06T07:16:00Z,u1,news,open,
            2025-01-06T07:17:00Z,u2,mail,open,
            2025-01-06T07:18:00Z,u1,,screen_on,
            2025-01-06T07:19:00Z,u2,maps,open,
            2025-01-06T07:20:00Z,u1,mail,open,

            """)
        var source = try LogSource(paths: [log])
        #expect(try await pg.ingest(&source).inserted == 5)
        #expect(try await Self.strings(pg, "SELECT id || ' ' || name FROM apps ORDER BY id") == ["1 mail", "7 news", "8 maps"])
        #expect(try await Self.strings(pg, "SELECT user_name || ' ' || app FROM user_apps ORDER BY 1") == ["u1 1", "u1 7", "u2 1", "u2 8"])
        #expect(try await Self.keyColumns(pg) == Self.key)
        // The sequence is past the ids the load gave: a service's new app takes the next one.
        #expect(try await Self.strings(pg, "SELECT last_value::text FROM apps_id_seq") == ["8"])
        #expect(try await Self.strings(pg, "SELECT user_name || ' ' || id FROM user_versions ORDER BY id") == ["u2 1", "u1 5"])
        let added = try await pg.appendGroup([[ServiceStoreTests.event("x", user: "u1", minute: 0, app: "chat")]])
        _ = try added[0].get()
        #expect(try await Self.strings(pg, "SELECT id || ' ' || name FROM apps WHERE name = 'chat'") == ["9 chat"])
        _ = try await pg.appendGroup([[ServiceStoreTests.event("y", user: "u3", minute: 0, app: "chat")]])[0].get()
        #expect(try await Self.strings(pg, "SELECT id::text FROM user_versions WHERE user_name = 'u3'") == ["6"])
        #expect(try await pg.history(user: "u3").events.count == 1)
        await pg.close()
        try await db.drop()
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aFirstLoadStoppedByABadRowLeavesTheStoreAsItWas() async throws {
        let db = try await TestDatabase.make()
        let dir = TempDir()
        defer { dir.cleanup() }
        let pg = try await db.patientStore()
        let good = Self.rows(3000, users: 7, apps: 11)
        let bad = dir.file("bad.csv", Self.csv(good + ["2025-01-06T09:00:00Z,u1,news,opened,"]))
        var source = try LogSource(paths: [bad])
        await #expect(throws: LogError.self) { try await pg.ingest(&source) }
        for table in ["events", "apps", "user_apps", "user_versions"] {
            #expect(try await Self.strings(pg, "SELECT count(*)::text FROM \(table)") == ["0"], "\(table) is as it was")
        }
        #expect(try await Self.keyColumns(pg) == Self.key)
        let fine = dir.file("good.csv", Self.csv(good))
        var again = try LogSource(paths: [fine])
        #expect(try await pg.ingest(&again).inserted == 3000)
        await pg.close()
        try await db.drop()
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aFirstLoadAndAnInstancesWritesAtOnceBothLand() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.csv", Self.csv(Self.rows(2000, users: 5, apps: 9)))
        for round in 0..<4 {
            let db = try await TestDatabase.make()
            let loader = try await PostgresStore(url: db.url), instance = try await PostgresStore(url: db.url)
            async let load: IngestStats = {
                var source = try LogSource(paths: [log])
                return try await loader.ingest(&source)
            }()
            async let writes: Void = {
                for i in 0..<6 {
                    let app = i % 2 == 0 ? "app\(i)" : "own\(round)-\(i)"  // some names the log has, some it has not
                    let group = [[ServiceStoreTests.event("w\(i)", user: "svc", minute: Int64(i), app: app)]]
                    // A write waits behind the load's lock; on a loaded machine past the write's
                    // deadline (issue 64), when the client sends it again.
                    _ = try await StoreRetry.triedAgain { try await instance.appendGroup(group)[0].get() }
                }
            }()
            let (stats, _) = try await (load, writes)
            #expect(stats.inserted == 2000)
            #expect(try await Self.strings(loader, "SELECT count(*)::text FROM events") == ["2006"])
            #expect(try await loader.history(user: "svc").events.count == 6)
            let names = try await Self.strings(loader, "SELECT name FROM apps")
            #expect(names.count == Set(names).count && names.count == 12, "each app once: \(names.sorted())")
            await loader.close()
            await instance.close()
            try await db.drop()
        }
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aLoadSmallerThanTheStoreGoesThroughTheKeyAndALargerOneBuildsItAgainBothAsSQLiteStores() async throws {
        let db = try await TestDatabase.make()
        let dir = TempDir()
        defer { dir.cleanup() }
        let all = Self.rows(3000, users: 7, apps: 11)
        let logs = [dir.file("a.csv", Self.csv(Array(all.prefix(1000)))),
                    dir.file("b.csv", Self.csv(Array(all[950..<1050]))),  // fewer rows than stored, half of them stored
                    dir.file("c.csv", Self.csv(all))]                      // more than twice the rows stored, a third of them stored already
        let pg = try await db.patientStore()
        let lite = try SQLiteStore(path: dir.path + "/s.sqlite")
        var keys: [String] = []
        for log in logs {
            var a = try LogSource(paths: [log]), b = try LogSource(paths: [log])
            #expect(try await pg.ingest(&a).inserted == (try lite.ingest(&b)).inserted)
            keys += try await Self.strings(pg, "SELECT pg_relation_filenode('events_pkey')::text")
        }
        #expect(keys[0] == keys[1], "through the key")
        #expect(keys[1] != keys[2], "the key built again")
        #expect(try await Self.keyColumns(pg) == Self.key)
        for user in (0..<7).map({ "u\($0)" }) {
            #expect(ServiceStoreTests.text(try await lite.history(user: user)) == ServiceStoreTests.text(try await pg.history(user: user)))
        }
        await pg.close()
        try await db.drop()
    }
}
