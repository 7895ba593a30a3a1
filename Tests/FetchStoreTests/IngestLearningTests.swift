import FetchCore
import FetchStorage
import FetchSQLite
import FetchTesting
import GRDB
import Testing

/// An ingest that learns stores, byte for byte, the models that learning every user from the
/// store afterwards gives: for users new to the store it learns from the rows as they go in.
struct IngestLearningTests {
    /// Every stored model record, as text.
    static func models(_ store: SQLiteStore) throws -> [String] {
        try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT user, app, hex(data) FROM models ORDER BY user, app")
                .map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }
        }
    }

    /// A random log whose users and apps take names from small pools in a random order, so that
    /// successive logs share some users and list the apps in other orders than the store. Some
    /// opens get company at their instant: another app, or the same row again.
    static func log(_ rng: inout SplitMix64) -> ArraySource {
        let users = rng.int(in: 1...4), appCount = rng.int(in: 2...7)
        let random = RandomLog(seed: rng.next(), users: users, days: rng.int(in: 1...3), eventsPerDay: 80, apps: appCount)
        var events: [UsageEvent] = []
        for e in random.events {
            events.append(e)
            if e.kind == .open && rng.chance(0.2) {
                var other = e
                if rng.chance(0.7) { other.app = Int32(rng.int(in: 0...(appCount - 1))) }
                events.append(other)
            }
        }
        let userNames = NameTable(), appNames = NameTable()
        for name in (0..<6).map({ "user\($0)" }).shuffled(using: &rng).prefix(users) { _ = userNames.id(name) }
        for name in (0..<8).map({ "app\($0)" }).shuffled(using: &rng).prefix(appCount) { _ = appNames.id(name) }
        return ArraySource(events: events, users: userNames, apps: appNames)
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func learningWhileIngestingStoresTheModelsTheStoreGives(seed: UInt64) throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let learning = try SQLiteStore(path: dir.path + "/learning.sqlite")
        let plain = try SQLiteStore(path: dir.path + "/plain.sqlite")
        var rng = SplitMix64(seed: seed, 0x69_6C)
        var everyone = Set<String>()
        for _ in 0..<rng.int(in: 2...4) {
            var a = Self.log(&rng), b = a
            let stats = try learning.ingest(&a, learn: true)
            #expect(stats.learned == a.users.names.count)
            _ = try plain.ingest(&b)
            everyone.formUnion(b.users.names)
        }
        try plain.learnModels(users: everyone.sorted())
        let learned = try Self.models(learning)
        #expect(!learned.isEmpty)
        #expect(learned == (try Self.models(plain)))
    }

    /// Events given out of time order for a user: the learner cannot stand for the store, so
    /// the ingest learns from the store.
    @Test func aSourceOutOfTimeOrderIsLearnedFromTheStore() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        var rng = SplitMix64(seed: 9, 0x69_6C)
        var events: [UsageEvent] = []
        let inOrder = Self.log(&rng)
        var copy = inOrder
        while let e = copy.next() { events.append(e) }
        events.swapAt(3, events.count - 4)
        var a = Unsorted(events: events, users: inOrder.users, apps: inOrder.apps), b = a
        let learning = try SQLiteStore(path: dir.path + "/learning.sqlite")
        let plain = try SQLiteStore(path: dir.path + "/plain.sqlite")
        _ = try learning.ingest(&a, learn: true)
        _ = try plain.ingest(&b)
        try plain.learnModels(users: b.users.names)
        #expect(try Self.models(learning) == (try Self.models(plain)))
    }

    /// Events in exactly the order given.
    struct Unsorted: UsageEventSource {
        let events: [UsageEvent]
        let users: NameTable
        let apps: NameTable
        var position = 0

        mutating func next() -> UsageEvent? {
            guard position < events.count else { return nil }
            defer { position += 1 }
            return events[position]
        }
    }

    /// The async queue hands the learner the events in the order they came, whatever the batches
    /// and the waits for room: the models are those of the learner fed in line.
    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func theAsyncQueueLearnsWhatTheLearnerLearnsInLine(seed: UInt64) async {
        var rng = SplitMix64(seed: seed, 0x61_71)
        let random = RandomLog(seed: rng.next(), users: rng.int(in: 2...9), days: 14, eventsPerDay: 400, apps: 12)
        var queue = AsyncLearnerQueue(), inLine = IngestLearner()
        for (i, e) in random.events.enumerated() {
            let app = Int64(e.app)
            queue.observe(e, app: app)
            inLine.observe(e, app: app)
            if i % 5_000 == 0 && rng.chance(0.5) { await queue.room() }
        }
        #expect(random.events.count > LearnerQueue.batchSize * (LearnerQueue.batchesWaiting + 2))
        let learned = await queue.finish()
        let expected = (inLine.inOrder, inLine.finish())
        #expect(learned.inOrder == expected.0)
        #expect(learned.models.map(\.user) == expected.1.map(\.user))
        #expect(learned.models.map(\.model) == expected.1.map(\.model))
    }
}
