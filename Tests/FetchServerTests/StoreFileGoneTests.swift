import FetchServer
import FetchSQLite
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A SQLite store removed or replaced under a running service: every write and `/ready` answer
/// 503 at once, and nothing is acknowledged that went into a file nobody will open again.
struct StoreFileGoneTests {
    @Test(arguments: [false, true])
    func aStoreRemovedOrReplacedUnderTheServiceRefusesWritesWith503(replaced: Bool) async throws {
        let h = try ServerHarness()
        let events = ServerHarness.log(users: 1, days: 2).events
        let (before, after) = (Array(events.prefix(events.count / 2)), Array(events.suffix(from: events.count / 2)))
        let path = h.dir + "/store.sqlite"
        try await h.app.test(.router) { client in
            #expect(try await ServerHarness.ingest(client, before) == [.ok])
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            if replaced { _ = try SQLiteStore(path: path) }
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": after])) {
                #expect($0.status == .serviceUnavailable)
            }
            try await client.execute(uri: "/ready", method: .get) { #expect($0.status == .serviceUnavailable) }
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/interval", method: .put,
                                     body: ServerHarness.body(["interval": "minimum"])) {
                #expect($0.status == .serviceUnavailable)
            }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
        // What is at the path now holds none of what was refused.
        let now = try SQLiteStore(path: path)
        let kept = try await now.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0 }
        #expect(kept == 0)
    }
}
