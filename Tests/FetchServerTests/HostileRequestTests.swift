import FetchCore
import FetchServer
import FetchStorage
import FetchSQLite
import GRDB
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 10's reproductions, each through the router: a clear 4xx naming the field, the
/// service still answering, and nothing else changed.
struct HostileRequestTests {
    static let user = "user-0001"
    static let plan = "/v1/users/user-0001/apps/com.example.news/plan"

    /// A service holding a day of the sample log's first user.
    func withService(limits: ServiceLimits = ServiceLimits(), maxUsers: Int? = nil,
                     _ body: @Sendable (ServerHarness, any TestClientProtocol) async throws -> Void) async throws {
        let h = try ServerHarness(limits: limits, maxUsersInMemory: maxUsers)
        let (_, events) = ServerHarness.log(users: 2, days: 2)
        try await h.app.test(.router) { client in
            #expect(try await ServerHarness.ingest(client, events).allSatisfy { $0 == .ok })
            try await body(h, client)
        }
    }

    func expect(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: Any? = nil,
                status: HTTPResponse.Status = .badRequest, field: String?, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await client.execute(uri: uri, method: method, headers: ServerHarness.headers(nil),
                                 body: body.map(ServerHarness.body)) { response in
            #expect(response.status == status, "\(uri): \(String(buffer: response.body))", sourceLocation: sourceLocation)
            let error = ServerHarness.json(response)["error"] as? [String: Any]
            #expect(error?["field"] as? String == field, "\(String(buffer: response.body))", sourceLocation: sourceLocation)
            #expect((error?["requestId"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
            #expect(response.headers[HTTPField.Name("X-Request-Id")!] != nil, sourceLocation: sourceLocation)
        }
    }

    /// The answers that must not change: a plan, the budget and push advice.
    func answers(_ client: some TestClientProtocol) async throws -> [String] {
        var out: [String] = []
        for uri in [Self.plan, "/v1/users/user-0001/budget", "/v1/users/user-0001/apps/com.example.news/push"] {
            out.append(try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok, "\(uri)")
                return String(buffer: response.body)
            })
        }
        return out
    }

    func fetch(_ changes: [String: Any]) -> [String: Any] {
        var f: [String: Any] = ["app": "com.example.news", "start": "2025-01-06T12:00:00Z", "durationMs": 2000, "bytes": 1000,
                                "network": "wifi", "result": "newData"]
        for (k, v) in changes { f[k] = v }
        return f
    }

    @Test func case1OverflowingNumbersAreRefusedByField() async throws {
        try await withService { _, client in
            let before = try await answers(client)
            try await expect(client, .get, Self.plan + "?horizon=99999999999999999999h", field: "horizon")
            try await expect(client, .get, Self.plan + "?horizon=8d", field: "horizon")
            try await expect(client, .put, "/v1/users/user-0001/apps/com.example.news/interval",
                             body: ["interval": "custom:9999999999999d"], field: "interval")
            try await expect(client, .post, "/v1/users/user-0001/fetches", body: fetch(["durationMs": Int64.max]), field: "durationMs")
            try await expect(client, .post, "/v1/users/user-0001/fetches", body: fetch(["durationMs": 30_001]), field: "durationMs")
            try await expect(client, .post, "/v1/users/user-0001/fetches", body: fetch(["bytes": Int64.max]), field: "bytes")
            try await expect(client, .post, "/v1/users/user-0001/fetches",
                             body: fetch(["bytes": Int64(1) << 62, "network": "cellular"]), field: "bytes")
            #expect(try await answers(client) == before)
        }
    }

    @Test func cases2And4FarDatesAreRefusedBeforeAnyWork() async throws {
        try await withService { _, client in
            let before = try await answers(client)
            try await expect(client, .get, Self.plan + "?at=9999-12-31T00:00:00Z", field: "at")
            try await expect(client, .get, Self.plan + "?at=2099-12-31T00:00:00Z", field: "at")
            try await expect(client, .get, "/v1/users/user-0001/budget?at=2099-12-31T00:00:00Z", field: "at")
            try await expect(client, .get, "/v1/users/user-0001/apps/com.example.news/push?at=2099-12-31T00:00:00Z", field: "at")
            try await expect(client, .post, "/v1/events", body: ["events": [["id": "far", "user": Self.user, "timestamp": "9999-12-31T00:00:00Z",
                                                                             "event": "open", "app": "com.example.news"]]],
                             field: "events[0].timestamp")
            try await expect(client, .post, "/v1/users/user-0001/fetches", body: fetch(["start": "9999-01-01T00:00:00Z"]), field: "start")
            try await expect(client, .post, "/v1/users/user-0001/fetches", body: fetch(["start": "2099-01-01T00:00:00Z"]), field: "start")
            // Case 4: a report dated 2525 no longer makes the session hold gigabytes.
            try await expect(client, .post, "/v1/users/user-0001/fetches", body: fetch(["start": "2525-01-01T00:00:00Z"]), field: "start")
            #expect(try await answers(client) == before)
        }
    }

    @Test func case3NamesAreBoundedAndOneUsersAppsStayItsOwn() async throws {
        try await withService { h, client in
            let long = String(repeating: "a", count: 201)
            try await expect(client, .post, "/v1/events", body: ["events": [["id": "x", "user": "u", "timestamp": "2025-01-06T12:00:00Z",
                                                                             "event": "open", "app": long]]], field: "events[0].app")
            try await expect(client, .post, "/v1/events", body: ["events": [["id": long, "user": "u", "timestamp": "2025-01-06T12:00:00Z",
                                                                             "event": "screen_on"]]], field: "events[0].id")
            try await expect(client, .get, "/v1/users/user-0001/apps/\(long)/plan", field: "app")
            // Another user's apps never enter this user's session.
            _ = try await ServerHarness.ingest(client, [["id": "o1", "user": "other", "timestamp": "2025-01-06T12:00:00Z",
                                                         "event": "open", "app": "com.only.other"]])
            let apps = try h.store.withEvents(user: Self.user) { $0.apps.names }
            #expect(!apps.contains("com.only.other") && !apps.isEmpty)
            // Deleting that user removes the app name only it used.
            try await client.execute(uri: "/v1/users/other", method: .delete) { #expect($0.status == .ok) }
            let names = try await h.store.pool.read { try String.fetchAll($0, sql: "SELECT name FROM apps") }
            #expect(!names.contains("com.only.other") && names.contains("com.example.news"))
        }
    }

    @Test func case5ControlCharactersInNamesAreRefused() async throws {
        try await withService { h, client in
            let before = try await answers(client)
            try await expect(client, .post, "/v1/events", body: ["events": [["id": "n", "user": "user-0001\u{0}", "timestamp": "2025-01-06T12:00:00Z",
                                                                             "event": "open", "app": "com.example.news"]]], field: "events[0].user")
            try await expect(client, .delete, "/v1/users/user-0001%00", field: "user")
            try await expect(client, .get, "/v1/users/user-0001%1B/budget", field: "user")
            try await expect(client, .get, "/v1/users/user-0001/apps/news%00/plan", field: "app")
            #expect(try await answers(client) == before)
            #expect(try await h.store.hasUser(Self.user))
        }
    }

    @Test func case6LiveStatesAreBoundedAndEvictionsCounted() async throws {
        try await withService(maxUsers: 1) { h, client in
            let first = try await client.execute(uri: Self.plan, method: .get) { String(buffer: $0.body) }
            _ = try await client.execute(uri: "/v1/users/user-0002/apps/com.example.news/plan", method: .get) { $0.status }
            // user-0001's state was dropped for user-0002's; asked again, it is rebuilt the same.
            #expect(try await client.execute(uri: Self.plan, method: .get) { String(buffer: $0.body) } == first)
            let metrics = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            #expect(metrics.contains("fetchsched_session_evictions_total 2"), "\(metrics)")
            #expect(metrics.contains("fetchsched_session_builds_total 3"))
        }
    }

    @Test func case7AFullDiskIsAJSONErrorAndKeepsWhatWasAcknowledged() async throws {
        try await withService { h, client in
            let stored = try h.store.counts().events
            // Cap the writer's database size at what it holds now: the next write cannot fit.
            try await h.store.pool.write { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
            let (_, more) = ServerHarness.log(users: 3, days: 3, seed: 9)
            let batch = more.map { e in e.merging(["id": "full-" + e["id"]!]) { $1 } }
            try await client.execute(uri: "/v1/events", method: .post, headers: ServerHarness.headers(nil),
                                     body: ServerHarness.body(["events": Array(batch.prefix(2_000))])) { response in
                // The store's own error for a full disk (``StoreFull``), mapped to 507 with a JSON body.
                #expect(response.status.code == 507, "\(String(buffer: response.body))")
                let error = ServerHarness.json(response)["error"] as? [String: Any]
                #expect(error?["message"] as? String != nil && error?["requestId"] as? String != nil, "\(String(buffer: response.body))")
            }
            #expect(try h.store.counts().events == stored)
        }
    }

    @Test func aStoredRowOutOfRangeIsAnErrorForThatUserOnly() async throws {
        try await withService { h, client in
            let other = try await client.execute(uri: "/v1/users/user-0002/apps/com.example.news/plan", method: .get) { String(buffer: $0.body) }
            // Rows that no request could have written, as if another program had.
            try await h.store.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO events (ts, user, kind, app, value, occurrence, utcOffset, unixForm)
                    SELECT 9000000000000000, id, 0, 0, 0, 0, 0, 0 FROM users WHERE name = 'user-0001'
                    """)
                try db.execute(sql: """
                    INSERT INTO fetch_results (user, app, start, utcOffset, duration, bytes, network, result)
                    VALUES ('user-0001', 'com.example.news', 1736150400000, 0, 9223372036854775807, 1, 1, 'newData')
                    """)
            }
            for uri in [Self.plan, "/v1/users/user-0001/budget"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .internalServerError)
                    let error = ServerHarness.json(response)["error"] as? [String: Any]
                    #expect((error?["message"] as? String)?.contains("out of range") == true, "\(String(buffer: response.body))")
                }
            }
            #expect(try await client.execute(uri: "/v1/users/user-0002/apps/com.example.news/plan", method: .get) { String(buffer: $0.body) } == other)
        }
    }

    @Test func anUnknownRouteIsAJSONErrorToo() async throws {
        try await withService { _, client in
            try await client.execute(uri: "/v1/nothing/here", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(ServerHarness.json(response)["error"] != nil, "\(String(buffer: response.body))")
            }
        }
    }
}
