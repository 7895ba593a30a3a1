import FetchBench
import FetchCore
import FetchStorage
@testable import FetchSQLite
import FetchTesting
import GRDB
import Testing

/// An ingest's rows go in user by user, a bounded number at a time, and the store holds what an
/// ingest of them all at once holds.
struct RowsByUserTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func rowsAreGivenOutByUserIdEachUsersInArrivalOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var held = RowsByUser(capacity: 64)
        var given: [(Int64, Int64)] = []
        var arrived: [Int64: [Int64]] = [:]
        var sequence: Int64 = 0
        for _ in 0..<Int.random(in: 1...40, using: &rng) {
            for _ in 0..<Int.random(in: 0...64, using: &rng) {
                let user = Int64.random(in: 1...9, using: &rng) * 1_000
                sequence += 1
                held.append(.init(ts: sequence, app: 0, occurrence: 0, value: 0, offset: 0, kind: 0, unixForm: false), user: user)
                arrived[user, default: []].append(sequence)
            }
            var run: [(Int64, Int64)] = []
            held.drain { user, row in run.append((user, row.ts)) }
            #expect(held.count == 0)
            #expect(run.map(\.0) == run.map(\.0).sorted(), "users in ascending id order")
            given += run
        }
        // Each user's rows came out in the order they went in, every one once.
        for (user, rows) in arrived { #expect(given.filter { $0.0 == user }.map(\.1) == rows) }
        #expect(given.count == arrived.values.map(\.count).reduce(0, +))
    }

    @Test(arguments: [1, 7, 64, 500])
    func anIngestHeldAFewRowsAtATimeStoresWhatOneHeldAtOnceStores(rowsHeld: Int) throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let log = dir.file("g.csv", SyntheticLog.csv(users: 5, days: 3, seed: 17))
        func contents(_ rowsHeld: Int, _ name: String) throws -> [String] {
            let store = try SQLiteStore(path: dir.path + "/\(name).sqlite")
            var source = try LogSource(paths: [log])
            let stats = try store.ingest(&source, learn: true, rowsHeld: rowsHeld)
            #expect(stats.inserted == stats.read)
            var again = try LogSource(paths: [log])
            #expect(try store.ingest(&again, learn: true, rowsHeld: rowsHeld).inserted == 0, "the same log again adds nothing")
            return try store.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM events").map { "\($0)" }
                    + Row.fetchAll(db, sql: "SELECT user, app, hex(data) FROM models ORDER BY user, app").map { "\($0)" }
                    + [try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? ""]
            }
        }
        let once = try contents(1 << 21, "once")
        #expect(once.count > 500)
        #expect(try contents(rowsHeld, "runs") == once)
    }
}
