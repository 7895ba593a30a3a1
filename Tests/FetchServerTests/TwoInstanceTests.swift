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

/// Two service instances on one PostgreSQL store: each keeps users' engines in memory, and
/// each hears of what the other wrote (per-user versions, told by notification as they commit).
struct TwoInstanceTests {
    /// A service instance over its own connection pool to `db`: a patient one, as these tests ask
    /// what the instances answer, not how long a request may wait (a loaded machine kept writes
    /// past the service's 3 s).
    static func instance(_ db: TestDatabase) async throws -> (some ApplicationProtocol, PostgresStore) {
        let store = try await db.patientStore()
        let registry = PrometheusCollectorRegistry()
        let service = SchedulerService(store: store, scenario: .default, seed: 1, metrics: PrometheusMetricsFactory(registry: registry))
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let settings = ServerSettings(host: "127.0.0.1", port: 0, tokens: nil, limits: ServiceLimits(readTimeoutMs: 300_000))
        return (buildApplication(service: service, settings: settings, registry: registry, logger: logger), store)
    }

    /// The status and, for a success, the body (an error's body carries its own request id).
    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> String {
        try await client.execute(uri: uri, method: .get) { $0.status == .ok ? "200 \(String(buffer: $0.body))" : "\($0.status.code)" }
    }

    static func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ object: Any) async throws -> Int {
        try await client.execute(uri: uri, method: method, headers: ServerHarness.headers(nil), body: ServerHarness.body(object)) {
            $0.status.code
        }
    }

    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func twoInstancesAgreeByteForByteAfterInterleavedWrites() async throws {
        let db = try await TestDatabase.make()
        let (events, plans) = (ServerHarness.log(users: 2, days: 6).events,
                               ["/v1/users/user-0001/apps/com.example.news/plan", "/v1/users/user-0002/apps/com.example.chat/plan",
                                "/v1/users/user-0001/budget", "/v1/users/user-0002/apps/com.example.news/push", "/v1/users/user-0001/wake?kind=plugged"])
        let (appA, storeA) = try await Self.instance(db)
        let (appB, storeB) = try await Self.instance(db)
        let rounds = try await appA.test(.router) { a in
            try await appB.test(.router) { b -> Int in
                var rounds = 0
                func agree(_ note: String) async throws {
                    // Each instance hears of the other's writes by notification: once both have
                    // heard everything committed so far, they must answer alike.
                    try await storeA.catchUpVersions()
                    try await storeB.catchUpVersions()
                    for uri in plans {
                        let (fromA, fromB) = (try await Self.get(a, uri), try await Self.get(b, uri))
                        #expect(fromA == fromB, "\(note): \(uri)")
                        #expect(fromA.hasPrefix("200 ") || note.contains("deleted"), "\(note): \(uri): \(fromA)")
                    }
                    rounds += 1
                }
                let cut = events.count / 3
                #expect(try await ServerHarness.ingest(a, Array(events[..<cut])).allSatisfy { $0 == .ok })
                try await agree("both built")
                // Ingest on A in small batches; B answers from its memory only if nothing changed.
                var i = cut
                while i < events.count {
                    let part = Array(events[i..<min(events.count, i + 211)])
                    // Mostly on A, a third on B: each instance's memory must notice the other's writes.
                    let statuses = (i / 211) % 3 == 2 ? try await ServerHarness.ingest(b, part) : try await ServerHarness.ingest(a, part)
                    #expect(statuses.allSatisfy { $0 == .ok })
                    try await agree("after events up to \(i)")
                    i += 211
                }
                let last = events.last!["timestamp"]!
                #expect(try await Self.send(b, .put, "/v1/users/user-0001/apps/com.example.news/interval", ["interval": "custom:2h"]) == 200)
                try await agree("after an interval set on B")
                #expect(try await Self.send(a, .post, "/v1/users/user-0001/fetches",
                                            ["app": "com.example.news", "start": last, "durationMs": 3_000, "bytes": 5_000,
                                             "network": "wifi", "result": "newData"]) == 200)
                try await agree("after a fetch reported on A")
                #expect(try await Self.send(b, .delete, "/v1/users/user-0002", [String: String]()) == 200)
                try await agree("after user-0002 deleted on B")
                #expect(try await Self.get(a, plans[1]) == "404", "A no longer knows the deleted user")
                return rounds
            }
        }
        #expect(rounds > 3)
        await storeA.close()
        await storeB.close()
        try await db.drop()
    }

    /// Over PostgreSQL several groups of batches are written at once: batches about one user
    /// that arrive together all land, and what the instance then answers from memory is what a
    /// fresh instance builds from the store.
    @Test(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"))
    func batchesWrittenAtOnceLeaveTheMemoryOfTheStore() async throws {
        let db = try await TestDatabase.make()
        let events = ServerHarness.log(users: 3, days: 4, seed: 5).events
        let plans = ["/v1/users/user-0001/apps/com.example.news/plan", "/v1/users/user-0002/apps/com.example.chat/plan",
                     "/v1/users/user-0003/budget"]
        let (appA, storeA) = try await Self.instance(db)
        let (appB, storeB) = try await Self.instance(db)
        try await appA.test(.router) { a in
            #expect(try await ServerHarness.ingest(a, Array(events.prefix(50))).allSatisfy { $0 == .ok })
            for uri in plans { _ = try await Self.get(a, uri) }  // sessions built, then fed by the batches below
            let batches = stride(from: 50, to: events.count, by: 25).map { Array(events[$0..<min(events.count, $0 + 25)]) }
            let statuses = try await withThrowingTaskGroup(of: [HTTPResponse.Status].self) { group in
                var all: [HTTPResponse.Status] = []
                for (i, part) in batches.enumerated() {
                    if i >= 16, let done = try await group.next() { all += done }  // 16 requests in flight
                    group.addTask { try await ServerHarness.ingest(a, part) }
                }
                for try await done in group { all += done }
                return all
            }
            #expect(statuses.count == batches.count && statuses.allSatisfy { $0 == .ok })
            try await appB.test(.router) { b in
                try await storeA.catchUpVersions()
                for uri in plans {
                    let (fromA, fromB) = (try await Self.get(a, uri), try await Self.get(b, uri))
                    #expect(fromA == fromB && fromA.hasPrefix("200 "), "\(uri)")
                }
            }
        }
        await storeA.close()
        await storeB.close()
        try await db.drop()
    }
}
