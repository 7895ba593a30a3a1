import FetchBench
import FetchCore
@testable import FetchPostgres
import FetchPostgresTesting
import FetchStorage
import FetchSQLite
import Foundation
import FetchTesting
import GRDB
import NIOCore
import PostgresNIO
import Testing

/// One suite, both drivers: the promises of ``ServiceStore`` hold for SQLite and PostgreSQL
/// alike, and the two give the same history for the same writes.
struct ServiceStoreTests {
    enum Driver: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
        /// The drivers whose cases run: PostgreSQL's only with a cluster (or under CI, where a
        /// missing one fails them); the gated test below says it was skipped.
        static var configured: [Driver] { TestDatabase.isConfigured ? allCases : [.sqlite] }
    }

    /// A fresh store of `driver` (and a second connection to it, as another instance would
    /// have), passed to `body`.
    func withStores(_ driver: Driver, _ body: (any ServiceStore, any ServiceStore) async throws -> Void) async throws {
        switch driver {
        case .sqlite:
            let dir = TempDir()
            defer { dir.cleanup() }
            let store = try SQLiteStore(path: dir.path + "/s.sqlite")
            try await body(store, try SQLiteStore(path: dir.path + "/s.sqlite"))
        case .postgres:
            let db = try await TestDatabase.make()
            let a = try await db.patientStore(), b = try await db.patientStore()
            do { try await body(a, b) } catch { await a.close(); await b.close(); try await db.drop(); throw error }
            await a.close()
            await b.close()
            try await db.drop()
        }
    }

    static let base: Int64 = 1_736_150_400_000  // 2025-01-06T08:00:00Z

    static func event(_ id: String, user: String = "acme/u1", minute: Int64, kind: EventKind = .open, app: String? = "news") -> IdentifiedEvent {
        IdentifiedEvent(id: id, user: user,
                        event: UsageEvent(time: Instant(millis: base + minute * 60_000), user: 0, app: app == nil ? -1 : 0, kind: kind,
                                          value: 0, offsetMinutes: 60),
                        appName: app ?? "")
    }

    /// A history as text: what a rebuilt engine sees, without the version.
    static func text(_ h: UserHistory) -> String {
        let events = h.events.map { "\($0.time.millis) \($0.app < 0 ? "-" : h.appNames[Int($0.app)]) \($0.kind) \($0.value) \($0.offsetMinutes)" }
        let reports = h.reports.map { "\($0.start.millis) \($0.app) \($0.durationMs) \($0.bytes) \($0.network) \($0.result)" }
        return "apps \(h.appNames)\nevents \(events)\nreports \(reports)\nintervals \(h.intervals.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
    }

    /// The same writes through each driver.
    static func write(_ store: any ServiceStore) async throws -> UserHistory {
        _ = try await store.appendGroup([[event("a", minute: 0, kind: .screenOn, app: nil), event("b", minute: 1),
                                           event("c", minute: 1, app: "mail"), event("d", minute: 1)]])
        _ = try await store.record(FetchReport(app: 0, start: Instant(millis: base + 120_000), offsetMinutes: 60, durationMs: 4_000,
                                               bytes: 2_048, network: .wifi, result: .newData), user: "acme/u1", app: "news")
        try await store.setInterval(.custom(3_600_000), user: "acme/u1", app: "news")
        return try await store.history(user: "acme/u1")
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func bothDriversGiveTheSameHistoryForTheSameWrites() async throws {
        var texts: [String] = []
        for driver in Driver.allCases {
            try await withStores(driver) { store, _ in texts.append(Self.text(try await Self.write(store))) }
        }
        #expect(texts.count == 2 && texts[0] == texts[1])
        #expect(texts[0].contains("apps [\"news\", \"mail\"]"), "app names in the order first stored: \(texts[0])")
    }

    @Test(arguments: Driver.configured)
    func everyWriteMovesTheUsersVersionAndDeletionForgetsIt(driver: Driver) async throws {
        try await withStores(driver) { store, _ in
            #expect(try await store.version(user: "acme/u1") == UserVersion(hasEvents: false, version: 0))
            let h = try await Self.write(store)
            let v = try await store.version(user: "acme/u1")
            #expect(v.hasEvents && v.version == h.version && v.version > 0)
            let report = FetchReport(app: 0, start: Instant(millis: Self.base + 300_000), offsetMinutes: 60, durationMs: 1_000,
                                     bytes: 10, network: .cellular, result: .noData)
            let step = try #require(try await store.record(report, user: "acme/u1", app: "news"))
            #expect(step.before == v.version && step.after > step.before)
            #expect(try await store.record(report, user: "acme/u1", app: "news") == nil, "the same report again stores nothing")
            #expect(try await store.version(user: "acme/u1").version == step.after)
            #expect(try await store.deleteUser("acme/u1") == 4)
            #expect(try await store.version(user: "acme/u1") == UserVersion(hasEvents: false, version: 0))
            let again = try await Self.write(store)
            #expect(again.version > step.after, "a user written again never gets an earlier version back")
            #expect(again.events.count == 4 && again.reports.count == 1)
        }
    }

    @Test(arguments: Driver.configured)
    func aRetryIsStoredOnceEvenWhenTwoInstancesGetItAtOnce(driver: Driver) async throws {
        try await withStores(driver) { a, b in
            let batch = (0..<200).map { Self.event("r\($0)", user: "acme/u\($0 % 7)", minute: Int64($0)) }
            async let one = a.appendGroup([batch])
            async let two = b.appendGroup([batch])
            let added = try await [one, two].flatMap { $0 }.map { try $0.get().added.count }
            #expect(added.reduce(0, +) == 200, "\(added)")
            // The same ids in another tenant are other events.
            let other = try await a.appendGroup([batch.map { var e = $0; e.user = "globex/u"; return e }])
            #expect(try other[0].get().added.count == 200)
            var stored = 0
            for u in 0..<7 { stored += try await b.history(user: "acme/u\(u)").events.count }
            #expect(stored == 200)
        }
    }

    @Test(arguments: Driver.configured)
    func eachBatchOfAGroupIsAllOrNothingAndReportsItsUsersSteps(driver: Driver) async throws {
        try await withStores(driver) { store, _ in
            let first = [Self.event("x1", minute: 5), Self.event("x1", minute: 6), Self.event("x2", user: "acme/u2", minute: 7)]
            let results = try await store.appendGroup([first, [Self.event("x1", minute: 9)]])
            let outcome = try results[0].get()
            #expect(outcome.added.map(\.id) == ["x1", "x2"], "an id repeated in a batch is stored once")
            #expect(Set(outcome.steps.keys) == ["acme/u1", "acme/u2"])
            #expect(try results[1].get().added.isEmpty, "a later batch with a stored id adds nothing")
            #expect(try await store.lastEventTime(user: "acme/u1") == Self.base + 5 * 60_000)
            let v = try await store.version(user: "acme/u1").version
            #expect(outcome.steps["acme/u1"]?.after == v)
        }
    }

    /// An id is its user's: the same id for another user of the tenant is another event, and a
    /// user's id again, in any later batch, is nothing new.
    @Test(arguments: Driver.configured)
    func anEventIdIsItsUsersOwn(driver: Driver) async throws {
        try await withStores(driver) { store, _ in
            let first = try await store.appendGroup([[Self.event("e1", minute: 1), Self.event("e1", user: "acme/u2", minute: 1)]])
            #expect(try first[0].get().added.map(\.user) == ["acme/u1", "acme/u2"])
            let again = try await store.appendGroup([[Self.event("e1", user: "acme/u2", minute: 2)],
                                                     [Self.event("e1", user: "acme/u3", minute: 2)]])
            #expect(try again[0].get().added.isEmpty)
            #expect(try again[1].get().added.map(\.user) == ["acme/u3"])
            #expect(try await store.deleteUser("acme/u2") == 1)
            let afterDeletion = try await store.appendGroup([[Self.event("e1", user: "acme/u2", minute: 3)]])
            #expect(try afterDeletion[0].get().added.count == 1, "a deleted user's ids are forgotten")
        }
    }

    /// Sizes from one to past a hundred, ids repeated within and across batches, and
    /// events alike in all but their id: each new id is one stored event, whatever the batch's size.
    @Test(arguments: Driver.configured)
    func everyNewIdIsOneEventWhateverTheBatchSizeAndAlikeEventsAreKeptApart(driver: Driver) async throws {
        try await withStores(driver) { store, _ in
            var rng = SplitMix64(seed: 16)
            var expected = 0
            var sent = Set<String>()
            for size in [1, 2, 63, 64, 65, 150, 1] {
                let batch = (0..<size).map { _ in
                    Self.event("k\(rng.next() % 200)", minute: Int64(rng.next() % 3), app: rng.next() % 2 == 0 ? "news" : "mail")
                }
                let fresh = batch.map(\.id).filter { sent.insert($0).inserted }
                let added = try await store.appendGroup([batch])[0].get().added
                #expect(added.map(\.id) == fresh, "size \(size): the new ids, once each, in batch order")
                expected += fresh.count
            }
            #expect(try await store.history(user: "acme/u1").events.count == expected)
        }
    }
}

/// What `fetchsched ingest` stores, through either driver: the same events and the same models.
struct IngestParityTests {
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func ingestIntoPostgresStoresTheEventsAndModelsSQLiteStores() async throws {
        let db = try await TestDatabase.make()
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("g.csv", SyntheticLog.csv(users: 6, days: 5, seed: 12))
        let lite = try SQLiteStore(path: dir.path + "/s.sqlite")
        var a = try LogSource(paths: [log])
        let liteStats = try lite.ingest(&a)
        #expect(try lite.learnModels(users: a.users.names) == 6)
        let pg = try await db.patientStore()
        var b = try LogSource(paths: [log])
        let pgStats = try await pg.ingest(&b)
        #expect(try await pg.learnModels(users: b.users.names) == 6)
        #expect(pgStats.read == liteStats.read && pgStats.inserted == liteStats.inserted)
        var c = try LogSource(paths: [log])
        #expect(try await pg.ingest(&c).inserted == 0, "the same log again adds nothing")
        for user in a.users.names {
            let (x, y) = (try await lite.history(user: user), try await pg.history(user: user))
            #expect(ServiceStoreTests.text(x) == ServiceStoreTests.text(y))
        }
        let liteModels = try await lite.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT user, app, data FROM models ORDER BY user, app").map { "\($0[0] as String) \($0[1] as String) \(Array($0[2] as Data))" }
        }
        let pgModels = try await Self.models(pg)
        #expect(liteModels.count > 6 && liteModels == pgModels)
        // A first load that learns does so from the rows as they go in: the same models.
        let learningDB = try await TestDatabase.make()
        let learning = try await learningDB.patientStore()
        var d = try LogSource(paths: [log])
        #expect(try await learning.ingest(&d, learn: true).learned == 6)
        let learnedModels = try await Self.models(learning)
        #expect(liteModels == learnedModels)
        await pg.close()
        await learning.close()
        try await db.drop()
        try await learningDB.drop()
    }

    static func models(_ pg: PostgresStore) async throws -> [String] {
        var models: [String] = []
        for try await (user, app, data) in try await pg.client.query("SELECT user_name, app, data FROM models ORDER BY user_name, app")
            .decode((String, String, ByteBuffer).self) {
            models.append("\(user) \(app) \(Array(data.readableBytesView))")
        }
        return models
    }
}

/// Issue 34: two instances' legitimate writes at once never fail for meeting each other.
struct ConcurrentWriteTests {
    static func events(user: String, ids: String, app: String, count: Int) -> [IdentifiedEvent] {
        (0..<count).map { i in ServiceStoreTests.event("\(ids)-\(i)", user: user, minute: Int64(i / 2), app: app) }
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func identicalEventsOfANewUserFromTwoInstancesAreBothStored() async throws {
        let db = try await TestDatabase.make()
        let a = try await db.patientStore(), b = try await db.patientStore()
        for round in 0..<20 {
            let user = "race-\(round)"
            async let first = a.appendGroup([Self.events(user: user, ids: "a", app: "news", count: 6)])
            async let second = b.appendGroup([Self.events(user: user, ids: "b", app: "news", count: 6)])
            let (x, y) = try await (first, second)
            for result in x + y { _ = try result.get() }
            #expect(try await a.history(user: user).events.count == 12)
        }
        await a.close()
        await b.close()
        try await db.drop()
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aDeletionRacingAnAppendForItsOnlyAppBothSucceed() async throws {
        let db = try await TestDatabase.make()
        let a = try await db.patientStore(), b = try await db.patientStore()
        for round in 0..<20 {
            let app = "solo-\(round)"
            for result in try await a.appendGroup([Self.events(user: "leaving-\(round)", ids: "x", app: app, count: 4)]) {
                _ = try result.get()
            }
            async let deletion = a.deleteUser("leaving-\(round)")
            async let append = b.appendGroup([Self.events(user: "staying", ids: "y\(round)", app: app, count: 4)])
            let (removed, appended) = try await (deletion, append)
            #expect(removed == 4)
            for result in appended { _ = try result.get() }
            let history = try await a.history(user: "staying")
            #expect(history.events.count == 4 * (round + 1))
            #expect(history.appNames.contains(app))
        }
        await a.close()
        await b.close()
        try await db.drop()
    }

    /// Either order is one the store may take: the deletion waits for the ingest and removes
    /// its rows too, or the ingest comes after it and the user is back with exactly its rows.
    /// No event is ever left keyed by a user id the store no longer has.
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aDeletionRacingAnIngestOfTheUserLeavesNoEventWithoutItsUser() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let db = try await TestDatabase.make()
        let a = try await db.patientStore(), b = try await db.patientStore()
        var first = try LogSource(paths: [dir.file("first.csv", FirstLoadTests.csv(FirstLoadTests.rows(600, users: 3, apps: 4)))])
        _ = try await a.ingest(&first)  // the store has events: the ingests below are staged, not a first load
        for round in 0..<12 {
            let rows = (0..<100).map { "2025-01-07T\(10 + round):\(String(format: "%02d:%02d", $0 / 60, $0 % 60))Z,u0,app\($0 % 3),open," }
            let log = dir.file("r\(round).csv", FirstLoadTests.csv(rows))
            async let deletion = a.deleteUser("u0")
            async let ingest: IngestStats = {
                var source = try LogSource(paths: [log])
                return try await b.ingest(&source)
            }()
            let (_, stats) = try await (deletion, ingest)
            let left = try await a.history(user: "u0").events.count
            #expect(stats.inserted == 100 && (left == 0 || left == 100), "round \(round): \(stats.inserted) in, \(left) left")
            #expect(try await FirstLoadTests.strings(a, """
                SELECT count(*)::text FROM events e WHERE NOT EXISTS (SELECT 1 FROM user_versions v WHERE v.id = e.user_id)
                """) == ["0"])
            #expect(try await a.history(user: "u1").events.count == 200)
        }
        await a.close()
        await b.close()
        try await db.drop()
    }
}
