import FetchPostgresTesting
import FetchStorage
import Foundation
import Synchronization
import PostgresNIO
import Testing
@testable import FetchPostgres

/// A request whose pooled connection closes under it (``ConnectionCloseWatch``): PostgresNIO
/// leaves a query written to a closed connection unanswered, so without the watch such a
/// request would wait without end.
///
/// The behaviours asked about are bounded in each test (``within(_:_:)``); the suite's limit
/// only ends a hang elsewhere. It is three minutes: under the whole suite's load, whose async
/// work shares two pool threads on a 2-core machine, a test's set-up and teardown have taken
/// more than one.
@Suite(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"),
       .timeLimit(.minutes(3)))
struct ConnectionCloseWatchTests {
    /// A store through a proxy that can end every connection, waiting `wait` for a connection.
    static func store(wait: Duration) async throws -> (PostgresStore, OutageProxy, TestDatabase) {
        let db = try await TestDatabase.make()
        let cluster = try #require(URLComponents(string: db.url))
        let proxy = try await OutageProxy.start(to: try #require(cluster.host), port: cluster.port ?? 5432)
        // Opening the store connects within `wait` too; on a loaded machine a first connection
        // through the proxy can take longer than a short wait.
        let store = try await StoreRetry.triedAgain { try await PostgresStore(url: proxy.route(db.url), maxConnections: 2, connectionWait: wait) }
        return (store, proxy, db)
    }

    @Test func aQueryWrittenAfterTheConnectionClosedFailsAsUnavailable() async throws {
        let (store, proxy, db) = try await Self.store(wait: .milliseconds(200))
        let outcome = await Self.within(.seconds(30)) {
            try await store.connection { conn in
                _ = try await conn.query("SELECT 1", logger: store.logger)
                try await proxy.outage()
                try await conn.closeFuture.get()
                _ = try await conn.query("SELECT 2", logger: store.logger)
            }
        }
        switch outcome {
        case nil: Issue.record("the request still waits 30 s after its connection closed")
        case .success?: Issue.record("a query on a closed connection succeeded")
        case .failure(let error)?:
            #expect(error is StoreUnavailable, "\(error)")
            #expect("\(error)".contains(store.location), "\(error)")
        }
        await store.close()
        try await db.drop()
    }

    @Test func aRequestWhoseLastAnswerCameBeforeTheCloseReturnsItsValue() async throws {
        let (store, proxy, db) = try await Self.store(wait: .seconds(20))
        let outcome = await Self.within(.seconds(30)) {
            try await store.transaction { conn in
                try await conn.query("CREATE TABLE kept (n int)", logger: store.logger)
                return 7
            }
        }
        #expect(try outcome?.get() == 7)
        let answered = await Self.within(.seconds(30)) {
            try await store.connection { conn in
                let rows = try await conn.query("SELECT count(*)::int FROM kept", logger: store.logger).collect()
                try await proxy.outage()
                try await conn.closeFuture.get()
                return rows.count
            }
        }
        #expect(try answered?.get() == 1)
        await store.close()
        try await db.drop()
    }

    @Test func theWatchKeepsOneSlotPerOpenConnectionHoweverManyRequestsRan() async throws {
        // No outage here: the wait bounds only the connections' setup, which under the whole
        // suite's load on two cores has taken longer than 3 s. Sixty-four requests on at most two
        // connections are many per connection; four hundred have outlasted a minute under
        // CI's load.
        let (store, _, db) = try await Self.store(wait: .seconds(30))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<8 { try await store.ready() } }
            }
            try await group.waitForAll()
        }
        #expect((1...2).contains(store.closeWatch.watched))
        await store.close()
        try await db.drop()
    }

    /// What `body` gives, or nil when it has not given anything within `limit` (the body is then
    /// left as it is: a wait without end is what is tested for).
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async -> Result<T, any Error>? {
        await withCheckedContinuation { (done: CheckedContinuation<Result<T, any Error>?, Never>) in
            let once = Mutex<CheckedContinuation<Result<T, any Error>?, Never>?>(done)
            let finish: @Sendable (Result<T, any Error>?) -> Void = { value in
                once.withLock { c in defer { c = nil }; return c }?.resume(returning: value)
            }
            Task { do { finish(.success(try await body())) } catch { finish(.failure(error)) } }
            Task {
                try? await Task.sleep(for: limit)
                finish(nil)
            }
        }
    }
}
