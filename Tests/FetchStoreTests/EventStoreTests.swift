import FetchBench
import FetchCore
import FetchResults
import FetchStorage
import FetchSQLite
import FetchTesting
import GRDB
import Testing

/// The SQLite store: round trip, idempotent ingest, replay from the store equals replay from
/// the files, and a failed ingest leaves nothing.
struct EventStoreTests {
    func fileEvents(_ path: String) throws -> [String] {
        var source = try LogSource(paths: [path])
        var out: [String] = []
        while let e = try source.next() { out.append(describe(e, source.users, source.apps)) }
        return out
    }

    func describe(_ e: UsageEvent, _ users: NameTable, _ apps: NameTable) -> String {
        "\(e.time.millis) \(users[e.user]) \(e.app < 0 ? "-" : apps[e.app]) \(e.kind) \(e.value) \(e.offsetMinutes) \(e.unixForm)"
    }

    @Test func ingestRoundTripsEveryEvent() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("g.csv", SyntheticLog.csv(users: 4, days: 3, seed: 2))
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        var source = try LogSource(paths: [log])
        let stats = try store.ingest(&source)
        #expect(stats.inserted == stats.read)
        let stored = try store.withEvents { s in
            var out: [String] = []
            while let e = try s.next() { out.append(describe(e, s.users, s.apps)) }
            return out
        }
        // The store lists simultaneous events by key, the file in its own order.
        #expect(stored.sorted() == (try fileEvents(log)).sorted())
    }

    @Test func ingestingTheSameFileTwiceStoresNothingTwice() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("g.csv", SyntheticLog.csv(users: 3, days: 2, seed: 4) + "2025-01-08T23:59:00+01:00,user-0001,,screen_on,\n2025-01-08T23:59:00+01:00,user-0001,,screen_on,\n")
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        var first = try LogSource(paths: [log])
        let a = try store.ingest(&first)
        var second = try LogSource(paths: [log])
        let b = try store.ingest(&second)
        #expect(a.inserted == a.read)  // the two identical rows are two events
        #expect(b.read == a.read && b.inserted == 0)
        #expect(try store.counts().events == a.read)
    }

    @Test func aBadRowLeavesTheStoreAsItWas() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("bad.csv", SyntheticLog.csv(users: 2, days: 1, seed: 4) + "2025-01-07T10:00:00Z,u,a,opened,\n")
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        var source = try LogSource(paths: [log])
        #expect(throws: LogError.self) { try store.ingest(&source) }
        #expect(try store.counts().events == 0)
        #expect(try store.counts().users == 0)
    }

    /// What an ingest leaves in SQLite's own terms: the events' indexes (none: the key is the
    /// user's), the connection's settings back for the next writer (foreign keys on, every commit
    /// synced, the page cache, temporary storage in memory), every key sound.
    func schemaState(_ store: SQLiteStore) throws -> [String] {
        try store.pool.write { db in
            [try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'events' AND type = 'index' AND sql IS NOT NULL").joined(),
             "foreign_keys=\(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") ?? -1)",
             "synchronous=\(try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)",
             "cache_size=\(try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0)",
             "temp_store=\(try Int.fetchOne(db, sql: "PRAGMA temp_store") ?? -1)",
             "violations=\(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count)",
             try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? ""]
        }
    }

    @Test(arguments: [false, true])
    func ingestLeavesTheIndexTheConnectionSettingsAndTheKeysSoundWhetherItCommitsOrFails(badRow: Bool) throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let good = SyntheticLog.csv(users: 3, days: 2, seed: 6)
        let log = dir.file("g.csv", good + (badRow ? "2025-01-07T10:00:00Z,u,a,opened,\n" : ""))
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        // What a new connection has: the ingest must leave the writer the same.
        let sound = try schemaState(store)
        #expect(sound.first == "")
        #expect(sound.contains("foreign_keys=1") && sound.contains("synchronous=2") && sound.contains("temp_store=2"))
        #expect(sound.suffix(2) == ["violations=0", "ok"])
        var source = try LogSource(paths: [log])
        if badRow {
            #expect(throws: LogError.self) { try store.ingest(&source) }
            #expect(try store.counts().events == 0)
        } else {
            #expect(try store.ingest(&source).inserted > 0)
        }
        #expect(try schemaState(store) == sound)
        // Into a store that holds events, each user's rows go to the user's place in the key.
        var again = try LogSource(paths: [dir.file("more.csv", "timestamp,user,app,event,value\n2025-02-01T08:00:00Z,user-0009,com.example.news,open,\n")])
        #expect(try store.ingest(&again).inserted == 1)
        #expect(try schemaState(store) == sound)
        // A user's events, read off the key, are those of a scan of all events, whichever its order.
        func described(_ s: inout StoreEventSource) throws -> [String] {
            var out: [String] = []
            while let e = try s.next() { out.append(describe(e, s.users, s.apps)) }
            return out
        }
        let all = try store.withEvents { try described(&$0) }
        let inTime = try store.withEvents(timeOrder: true) { try described(&$0) }
        let one = try store.withEvents(user: "user-0001") { try described(&$0) }
        #expect(one == all.filter { $0.contains(" user-0001 ") })
        #expect(one == inTime.filter { $0.contains(" user-0001 ") })
        #expect(all.sorted() == inTime.sorted())
        let times = inTime.map { Int64($0.prefix { $0 != " " })! }
        #expect(times == times.sorted())
        // The time-order read leaves the reader's temporary storage in memory, as it found it.
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
        #expect(one.isEmpty == badRow)
    }

    /// A replay's batches (``ServiceStore/withEventBatches(timeOrder:_:)``) are the stored events
    /// in the order asked for, none empty and none larger than a batch, and all of one snapshot:
    /// an ingest that commits between two batches is not seen.
    @Test(arguments: [false, true])
    func aReplaysBatchesAreTheStoredEventsOfOneSnapshot(timeOrder: Bool) async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        var log = try LogSource(paths: [dir.file("g.csv", SyntheticLog.csv(users: 10, days: 28, seed: 4))])
        _ = try store.ingest(&log)
        let expected = try store.withEvents(timeOrder: timeOrder) { s in
            var out: [String] = []
            while let e = try s.next() { out.append(describe(e, s.users, s.apps)) }
            return out
        }
        let later = dir.file("later.csv", "timestamp,user,app,event,value\n2025-03-01T08:00:00Z,user-0099,com.example.late,open,\n")
        let (read, sizes) = try await store.withEventBatches(timeOrder: timeOrder) { source in
            var read: [String] = [], sizes: [Int] = []
            while let batch = try await source.nextBatch() {
                if sizes.count == 1 {
                    var more = try LogSource(paths: [later])
                    #expect(try store.ingest(&more).inserted == 1)
                }
                sizes.append(batch.count)
                read += batch.map { describe($0, source.users, source.apps) }
            }
            return (read, sizes)
        }
        #expect(read == expected)
        #expect(sizes.count > 2 && sizes.allSatisfy { (1...8192).contains($0) }, "\(sizes)")
        // The time-order read sorts on its snapshot's own connection: the pool's keep their setting.
        #expect(try await store.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
    }

    @Test(arguments: ["fixed:15m", "oracle"])
    func replayFromTheStoreEqualsReplayFromTheFile(policy: String) throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("g.csv", SyntheticLog.csv(users: 5, days: 4, seed: 8))
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        var ingest = try LogSource(paths: [log])
        _ = try store.ingest(&ingest)
        func run<S: UsageEventSource>(_ s: inout S) throws -> String {
            let r = makeReplay(policy: PolicySpec.parse(policy)!, scenario: .default, seed: 3, users: s.users, apps: s.apps)
            try s.run([r])
            return try ResultText.json(r.finish())
        }
        var file = try LogSource(paths: [log])
        let fromFile = try run(&file)
        let fromStore = try store.withEvents { try run(&$0) }
        #expect(fromFile == fromStore)
    }
}

/// The usage model in the store.
struct ModelStoreTests {
    @Test func theModelSurvivesAStoreRoundTripUnchanged() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("g.csv", SyntheticLog.csv(users: 3, days: 9, seed: 6))
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        var source = try LogSource(paths: [log])
        _ = try store.ingest(&source)
        var model = UsageModel()
        var replay = try LogSource(paths: [log])
        while let e = try replay.next() {
            if replay.users[e.user] == "user-0002" { model.observe(e) }
        }
        try store.saveModel(model, user: "user-0002", apps: replay.apps)
        let loaded = try #require(try store.loadModel(user: "user-0002", apps: replay.apps))
        #expect(loaded == model)
        #expect(model.apps.count > 3)
        #expect(try store.loadModel(user: "nobody", apps: replay.apps) == nil)
    }

    @Test func learningFromTheStoreGivesTheModelOfTheLog() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("g.csv", SyntheticLog.csv(users: 2, days: 5, seed: 6))
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        var source = try LogSource(paths: [log])
        _ = try store.ingest(&source)
        try store.learnModels(users: ["user-0001"])
        let apps = NameTable()
        let stored = try #require(try store.loadModel(user: "user-0001", apps: apps))
        var fromLog = UsageModel()
        var file = try LogSource(paths: [log])
        while let e = try file.next() {
            if file.users[e.user] == "user-0001" { fromLog.observe(e) }
        }
        // Ids differ between the two name tables: compare by name.
        let byName = { (m: UsageModel, t: NameTable) in Dictionary(uniqueKeysWithValues: m.apps.keys.map { (t[$0], m.apps[$0]!.opens) }) }
        #expect(byName(stored, apps) == byName(fromLog, file.apps))
        #expect(stored.sessions == fromLog.sessions && stored.exposure == fromLog.exposure)
    }
}
