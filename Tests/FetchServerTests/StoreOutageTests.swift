import FetchCore
import FetchPostgres
import FetchPostgresTesting
import FetchServer
import FetchStorage
import FetchSQLite
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Testing

/// Issue 34: the database stopping under a running service. Every request gets a 503 with the
/// JSON error body within seconds, `/ready` says the store is gone while `/health` still says the
/// process lives, each refusal is counted, and nothing sent during the outage is stored later.
struct StoreOutageTests {
    /// A service on the test database whose store waits one second for a connection.
    static func instance(_ db: TestDatabase, readTimeoutMs: Int64) async throws -> (some ApplicationProtocol, PostgresStore) {
        let store = try await PostgresStore(url: db.url, connectionWait: .seconds(1))
        let registry = PrometheusCollectorRegistry()
        let service = SchedulerService(store: store, scenario: .default, seed: 1, metrics: PrometheusMetricsFactory(registry: registry))
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let settings = ServerSettings(host: "127.0.0.1", port: 0, tokens: nil, limits: ServiceLimits(readTimeoutMs: readTimeoutMs))
        return (buildApplication(service: service, settings: settings, registry: registry, logger: logger), store)
    }

    /// A request read whole is the server's turn: one answered after the client's read timeout
    /// (here a 503 after the store's one-second wait, against a 300 ms timeout) still gets its
    /// response on a real socket, where before the connection was closed without one.
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func aRequestAnsweredAfterTheReadTimeoutStillGetsItsResponse() async throws {
        let db = try await TestDatabase.make()
        let (app, store) = try await Self.instance(db, readTimeoutMs: 300)
        try await db.block()
        try await app.test(.live) { client in
            let raw = try SlowClientTests.RawClient(port: try #require(client.port))
            raw.send("GET /ready HTTP/1.1\r\nHost: x\r\n\r\n")
            let text = await SlowClientTests.RawClient.offPool { raw.read(until: "}}") }
            #expect(text.hasPrefix("HTTP/1.1 503") && text.contains("store is unavailable"), "\(text)")
        }
        try await db.unblock()
        await store.close()
        try await db.drop()
    }

    /// The count of requests refused because the store was unavailable, as `/metrics` says it.
    static func storeUnavailable(_ client: some TestClientProtocol) async throws -> Int {
        try await client.execute(uri: "/metrics", method: .get) { response in
            let line = String(buffer: response.body).split(separator: "\n").first { $0.hasPrefix("fetchsched_store_unavailable_total ") }
            return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func anOutageIsA503WithinSecondsAndWhatWasRefusedIsNeverStored() async throws {
        let db = try await TestDatabase.make()
        let (app, store) = try await Self.instance(db, readTimeoutMs: 300_000)
        let events = ServerHarness.log(users: 1, days: 3).events
        let (before, during) = (Array(events.prefix(events.count / 2)), Array(events.suffix(from: events.count / 2)))
        do {
            try await app.test(.router) { client in
                #expect(try await ServerHarness.ingest(client, before) == [.ok])
                // Ready before the outage; on a loaded machine one try may outwait the store's second, and is counted.
                var readyBefore = false
                for _ in 0..<30 where !readyBefore {
                    readyBefore = try await client.execute(uri: "/ready", method: .get) { $0.status == .ok }
                }
                #expect(readyBefore)
                let refusedBefore = try await Self.storeUnavailable(client)
                try await db.block()
                let clock = ContinuousClock(), start = clock.now
                try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": during])) {
                    #expect($0.status == .serviceUnavailable)
                    #expect((ServerHarness.json($0)["error"] as? [String: Any])?["message"] as? String ?? "" != "")
                }
                for uri in ["/v1/users/user-0001/apps/com.example.news/plan", "/v1/users/user-0001/budget", "/ready"] {
                    try await client.execute(uri: uri, method: .get) {
                        #expect($0.status == .serviceUnavailable, "\(uri)")
                        #expect(String(buffer: $0.body).contains("store is unavailable"), "\(uri)")
                    }
                }
                try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
                // Bounded: four requests, each giving up after the store's one-second wait.
                #expect(clock.now - start < .seconds(30))
                #expect(try await Self.storeUnavailable(client) == refusedBefore + 4)
                try await db.unblock()
                // The pool reconnects on its own; each try is bounded by the store's wait.
                var ready = false
                for _ in 0..<60 where !ready {
                    ready = try await client.execute(uri: "/ready", method: .get) { $0.status == .ok }
                }
                #expect(ready)
                try await client.execute(uri: "/v1/users/user-0001/budget", method: .get) { #expect($0.status == .ok) }
            }
            // What was refused was not stored later: the store holds the first half alone.
            #expect(try await store.history(user: "user-0001").events.count == before.count)
        } catch {
            await store.close()
            try? await db.drop()
            throw error
        }
        await store.close()
        try await db.drop()
    }
}
