import FetchCore
import FetchStorage
@testable import FetchSQLite
import FetchTesting
import GRDB
import Testing

/// The SQLite writer remembers the ids of the names it has committed across batches
/// (``NameCache``): what it remembers must always be what the store holds.
struct EventStoreAppendTests {
    static func event(_ id: String, user: String, minute: Int64, app: String) -> IdentifiedEvent {
        ServiceStoreTests.event(id, user: user, minute: minute, app: app)
    }

    /// Each user's stored events as "minute app" texts.
    static func stored(_ store: SQLiteStore, _ user: String) async throws -> [String] {
        let h = try await store.history(user: user)
        return h.events.map { "\(($0.time.millis - ServiceStoreTests.base) / 60_000) \($0.app < 0 ? "-" : h.appNames[Int($0.app)])" }
    }

    /// Makes every insert of an event at `minute` fail (a trigger), so that its batch rolls back.
    static func refuseEvents(atMinute minute: Int64, in store: SQLiteStore) async throws {
        try await store.pool.write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.ts = \(ServiceStoreTests.base + minute * 60_000)
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
    }

    @Test func aNameAddedByABatchThatWasRolledBackIsNotRememberedWhenItsIdGoesToAnother() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        // An event at minute 13 fails inside its batch's savepoint, after the batch added its names.
        try await Self.refuseEvents(atMinute: 13, in: store)
        let failing = [Self.event("f1", user: "acme/gone", minute: 1, app: "lost"), Self.event("f2", user: "acme/gone", minute: 13, app: "lost")]
        let other = [Self.event("o1", user: "acme/other", minute: 2, app: "kept")]
        let results = try await store.appendGroup([failing, other])
        #expect(throws: (any Error).self) { try results[0].get() }
        #expect(try results[1].get().added.count == 1)
        // The rolled-back names' ids now belong to acme/other and "kept": the writer must not reuse them.
        _ = try await store.appendGroup([[Self.event("g1", user: "acme/gone", minute: 3, app: "lost")]])
        #expect(try await Self.stored(store, "acme/gone") == ["3 lost"])
        #expect(try await Self.stored(store, "acme/other") == ["2 kept"])
    }

    @Test func aDeletedUsersIdsAreForgottenBeforeOthersTakeThem() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        _ = try await store.appendGroup([[Self.event("a1", user: "acme/u1", minute: 1, app: "news")]])
        #expect(try await store.deleteUser("acme/u1") == 1)
        // The user's id and its only app's id are free again, and go to these names.
        _ = try await store.appendGroup([[Self.event("b1", user: "acme/u2", minute: 2, app: "mail")]])
        _ = try await store.appendGroup([[Self.event("a2", user: "acme/u1", minute: 3, app: "news")]])
        #expect(try await Self.stored(store, "acme/u1") == ["3 news"])
        #expect(try await Self.stored(store, "acme/u2") == ["2 mail"])
    }

    /// Many users and apps over many groups, some batches failing, some users deleted: after each
    /// group, every user's stored events are the ones its committed batches sent.
    @Test(arguments: [3, 19])
    func storedEventsFollowTheCommittedBatchesWhateverTheWriterRemembers(seed: UInt64) async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.path + "/s.sqlite")
        let refused: Int64 = 59
        try await Self.refuseEvents(atMinute: refused, in: store)
        var rng = SplitMix64(seed: seed)
        var expected: [String: [String]] = [:]
        var next = 0
        for _ in 0..<30 {
            var sent: [[IdentifiedEvent]] = []
            for _ in 0..<rng.int(in: 1...4) {
                let batch = (0..<rng.int(in: 1...5)).map { _ -> IdentifiedEvent in
                    next += 1
                    let minute = rng.chance(0.05) ? refused : Int64(rng.int(in: 0...58))
                    return Self.event("e\(next)", user: "acme/u\(rng.int(in: 0...5))", minute: minute, app: "app\(rng.int(in: 0...4))")
                }
                sent.append(batch)
            }
            let results = try await store.appendGroup(sent)
            for (batch, result) in zip(sent, results) {
                let committed = (try? result.get()) != nil
                #expect(committed == !batch.contains { $0.event.time.millis == ServiceStoreTests.base + refused * 60_000 })
                if committed { for e in batch { expected[e.user, default: []].append("\((e.event.time.millis - ServiceStoreTests.base) / 60_000) \(e.appName)") } }
            }
            if rng.chance(0.2) {
                let user = "acme/u\(rng.int(in: 0...5))"
                _ = try await store.deleteUser(user)
                expected[user] = nil
            }
            for u in 0...5 {
                let user = "acme/u\(u)"
                #expect(try await Self.stored(store, user).sorted() == (expected[user] ?? []).sorted(), "\(user)")
            }
        }
    }
}

struct NameCacheTests {
    @Test func aTableThatOutgrowsTheCapacityStartsOverAndKeepsTheNewEntry() {
        var cache = NameCache()
        for i in 0...NameCache.capacity {
            cache.addUser("u\(i)", Int64(i))
            cache.addPair(.init(user: Int64(i), app: 1))
        }
        #expect(cache.users.count == 1 && cache.user("u\(NameCache.capacity)") == Int64(NameCache.capacity))
        #expect(cache.pairs.count == 1 && cache.contains(.init(user: Int64(NameCache.capacity), app: 1)))
        cache.addUser("u0", 7)
        cache.addUser("u0", 8)
        #expect(cache.users.count == 2 && cache.user("u0") == 8, "a name already held is replaced, not counted twice")
    }
}
