import FetchCore
import FetchStorage
@testable import FetchSQLite
import FetchTesting
import GRDB
import Testing

/// A SQLite store whose disk is full says so in the store's own error (``StoreFull``), naming
/// the file, whichever write met it, and keeps what it held.
struct StoreFullTests {
    /// A store holding one user's events, capped at the pages it has: its next write cannot fit.
    static func fullStore(_ dir: TempDir) async throws -> SQLiteStore {
        let store = try SQLiteStore(path: dir.path + "/full.sqlite")
        let events = (0..<50).map { ServiceStoreTests.event("e\($0)", user: "acme/kim", minute: Int64($0), app: "news") }
        _ = try await store.appendGroup([events])[0].get()
        try await store.pool.write { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        return store
    }

    @Test(arguments: ["events", "fetch", "interval"])
    func aWriteToAFullStoreIsStoreFullNamingTheFile(write: String) async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let store = try await Self.fullStore(dir)
        let before = try store.counts()
        let error: (any Error)?
        do {
            switch write {
            case "events":
                let many = (0..<2_000).map { ServiceStoreTests.event("n\($0)", user: "acme/lee\($0 % 40)", minute: Int64($0), app: "app\($0)") }
                _ = try await store.appendGroup([many])[0].get()
            case "fetch":
                for i in 0..<2_000 {
                    _ = try await store.record(FetchReport(app: 0, start: Instant(millis: ServiceStoreTests.base + Int64(i) * 60_000),
                                                           offsetMinutes: 60, durationMs: 1_000, bytes: 1_000, network: .wifi,
                                                           result: .newData), user: "acme/kim", app: "news-\(i)")
                }
            default:
                for i in 0..<2_000 { try await store.setInterval(.minimum, user: "acme/kim", app: "an-app-with-a-long-name-\(i)") }
            }
            error = nil
        } catch let e {
            error = e
        }
        let full = try #require(error as? StoreFull, "\(String(describing: error))")
        #expect(full.description.contains("full.sqlite"), "\(full)")
        #expect(try store.counts().events == before.events)
    }
}
