import FetchCore
import FetchServer
import FetchStorage
import FetchSQLite
import FetchTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Testing

/// The API's routes, through HummingbirdTesting without sockets.
struct RouteTests {
    @Test func thePlanIsTheOneFetchschedNextGivesForTheSameStoreAndMoment() async throws {
        let h = try ServerHarness()
        let (csv, events) = ServerHarness.log(users: 3, days: 6)
        // The CLI's path: the same rows ingested from a file, planned by replay.
        let path = h.dir + "/log.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let cliStore = try SQLiteStore(path: h.dir + "/cli.sqlite")
        var file = try LogSource(paths: [path])
        _ = try cliStore.ingest(&file)
        let planner = FetchPlanner(scenario: .default, seed: 1)
        try await h.app.test(.router) { client in
            #expect(try await ServerHarness.ingest(client, events, batch: 500).allSatisfy { $0 == .ok })
            for (app, at) in [("com.example.news", nil), ("com.example.chat", "2025-01-10T06:00:00Z"), ("com.example.reader", "2025-01-11T19:00:00+00:00")] {
                let expected = try cliStore.withEvents(user: "user-0002") {
                    try planner.plan(&$0, user: "user-0002", app: app, at: at.map { Instant(millis: try! TimestampParser.parse(text: $0).millis) },
                                     horizon: Millis.day)
                }
                let query = at.map { "?at=\($0.replacingOccurrences(of: "+", with: "%2B"))" } ?? ""
                let want = try ResultText.json(expected)
                try await client.execute(uri: "/v1/users/user-0002/apps/\(app)/plan\(query)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == want)
                }
            }
        }
    }

    @Test func aLiveSessionFollowsNewEventsExactlyAsARebuiltOneWould() async throws {
        let (_, events) = ServerHarness.log(users: 2, days: 8)
        let live = try ServerHarness()
        let fresh = try ServerHarness()
        let cut = events.count / 2
        let livePlans = try await live.app.test(.router) { client -> [String] in
            _ = try await ServerHarness.ingest(client, Array(events[..<cut]))
            // Build the sessions now, then feed the rest in small batches.
            _ = try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/plan", method: .get)
            _ = try await ServerHarness.ingest(client, Array(events[cut...]), batch: 37)
            var plans: [String] = []
            for app in ["com.example.news", "com.example.chat"] {
                plans.append(try await client.execute(uri: "/v1/users/user-0001/apps/\(app)/plan", method: .get) { String(buffer: $0.body) })
            }
            return plans
        }
        try await fresh.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            for (i, app) in ["com.example.news", "com.example.chat"].enumerated() {
                let plan = try await client.execute(uri: "/v1/users/user-0001/apps/\(app)/plan", method: .get) { String(buffer: $0.body) }
                #expect(plan == livePlans[i])
            }
        }
    }

    @Test func anEventOlderThanTheLiveStateIsFoldedInByARebuild() async throws {
        let (_, events) = ServerHarness.log(users: 1, days: 6)
        let live = try ServerHarness(), fresh = try ServerHarness()
        // Hold back every tenth event, plan (building the live state), then send the held ones late.
        let late = events.enumerated().filter { $0.offset % 10 == 5 }.map(\.element)
        let early = events.enumerated().filter { $0.offset % 10 != 5 }.map(\.element)
        let uri = "/v1/users/user-0001/apps/com.example.news/plan"
        let afterLate = try await live.app.test(.router) { client -> String in
            _ = try await ServerHarness.ingest(client, early)
            _ = try await client.execute(uri: uri, method: .get)
            _ = try await ServerHarness.ingest(client, late)
            return try await client.execute(uri: uri, method: .get) { String(buffer: $0.body) }
        }
        let all = try await fresh.app.test(.router) { client -> String in
            _ = try await ServerHarness.ingest(client, events)
            return try await client.execute(uri: uri, method: .get) { String(buffer: $0.body) }
        }
        #expect(afterLate == all)
    }

    @Test func aRestartedServiceResumesFromTheStore() async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 1, days: 4)
        let uris = ["/v1/users/user-0001/apps/com.example.news/plan", "/v1/users/user-0001/budget"]
        let report = ServerHarness.body(["app": "com.example.chat", "start": events.last!["timestamp"]!, "durationMs": 3_000,
                                         "bytes": 90_000, "network": "wifi", "result": "failed"] as [String: Any])
        let before = try await h.app.test(.router) { client -> [String] in
            _ = try await ServerHarness.ingest(client, events)
            _ = try await client.execute(uri: "/v1/users/user-0001/fetches", method: .post, body: report)
            var out: [String] = []
            for uri in uris { out.append(try await client.execute(uri: uri, method: .get) { String(buffer: $0.body) }) }
            return out
        }
        // A new process on the same store: a new service, sessions rebuilt from what was stored.
        let store = try SQLiteStore(path: h.dir + "/store.sqlite")
        let service = SchedulerService(store: store, scenario: .default, seed: 1, metrics: PrometheusMetricsFactory(registry: h.registry))
        let app = buildApplication(service: service, settings: h.settings, registry: h.registry, logger: Logger(label: "restart"))
        try await app.test(.router) { client in
            for (i, uri) in uris.enumerated() {
                let now = try await client.execute(uri: uri, method: .get) { String(buffer: $0.body) }
                #expect(now == before[i])
            }
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": events])) {
                #expect(ServerHarness.json($0)["duplicates"] as? Int == events.count)
            }
        }
    }

    @Test func concurrentBatchesAreCommittedTogetherAndEachAnsweredForItself() async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 4, days: 3)
        let batches = stride(from: 0, to: events.count, by: 97).map { Array(events[$0..<min(events.count, $0 + 97)]) }
        // Through the router, not a socket: the live test client sends every request down one
        // connection, which the server answers one request at a time, so nothing would be
        // concurrent, and its fixed 20 s read timeout has expired under a loaded suite.
        try await h.app.test(.router) { client in
            for round in 0..<2 {
                let accepted = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                    for (i, batch) in batches.enumerated() {
                        group.addTask {
                            try await client.execute(uri: "/v1/events", method: .post, headers: ServerHarness.headers(nil),
                                                     body: ServerHarness.body(["events": batch])) {
                                (i, ServerHarness.json($0)["accepted"] as? Int ?? -1)
                            }
                        }
                    }
                    var out = [Int](repeating: -1, count: batches.count)
                    for try await (i, n) in group { out[i] = n }
                    return out
                }
                // First round: each request is answered with its own batch's count; the retry adds nothing.
                #expect(accepted == batches.map { round == 0 ? $0.count : 0 })
            }
        }
        #expect(try h.store.counts().events == events.count)
    }

    @Test func aRetriedBatchAddsNothingTwice() async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 1, days: 2)
        try await h.app.test(.router) { client in
            let body = ServerHarness.body(["events": events])
            try await client.execute(uri: "/v1/events", method: .post, body: body) {
                #expect(ServerHarness.json($0)["accepted"] as? Int == events.count)
            }
            try await client.execute(uri: "/v1/events", method: .post, body: body) {
                #expect(ServerHarness.json($0)["accepted"] as? Int == 0)
                #expect(ServerHarness.json($0)["duplicates"] as? Int == events.count)
            }
        }
        #expect(try h.store.counts().events == events.count)
    }

    @Test(arguments: [
        (["id": "b", "user": "u", "timestamp": "2025-13-01T00:00:00Z", "event": "open", "app": "a"], "events[1].timestamp"),
        (["id": "b", "user": "u", "timestamp": "2025-01-06T08:00:00Z", "event": "wake", "app": "a"], "events[1].event"),
        (["id": "b", "user": "u", "timestamp": "2025-01-06T08:00:00Z", "event": "open"], "events[1].app"),
        (["id": "b", "user": "u", "timestamp": "2025-01-06T08:00:00Z", "event": "battery", "value": "300"], "events[1].value"),
        (["id": "", "user": "u", "timestamp": "2025-01-06T08:00:00Z", "event": "open", "app": "a"], "events[1].id"),
        (["id": "b", "timestamp": "2025-01-06T08:00:00Z", "event": "open", "app": "a"], "events[1].user"),
    ])
    func aBadEventIsA400NamingTheFieldAndTheBatchIsNotApplied(event: [String: String], field: String) async throws {
        let h = try ServerHarness()
        let good = ["id": "a", "user": "u", "timestamp": "2025-01-06T07:00:00Z", "event": "open", "app": "a"]
        try await h.app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": [good, event]])) { response in
                #expect(response.status == .badRequest)
                let error = ServerHarness.json(response)["error"] as? [String: Any]
                #expect(error?["field"] as? String == field)
                #expect((error?["message"] as? String)?.isEmpty == false)
            }
        }
        #expect(try h.store.counts().events == 0)
    }

    @Test func requestsOverTheLimitsAre413s() async throws {
        let h = try ServerHarness(limits: ServiceLimits(maxBodyBytes: 4_000, maxBatchEvents: 3))
        let (_, events) = ServerHarness.log(users: 1, days: 1)
        try await h.app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": Array(events.prefix(4))])) {
                #expect($0.status == .contentTooLarge)
                #expect((ServerHarness.json($0)["error"] as? [String: Any])?["field"] as? String == "events")
            }
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": Array(repeating: events[0], count: 60)])) {
                #expect($0.status == .contentTooLarge)
                #expect((ServerHarness.json($0)["error"] as? [String: Any])?["field"] as? String == "body")
            }
            try await client.execute(uri: "/v1/events", method: .post, body: ByteBuffer(string: "{\"events\": 3}")) {
                #expect($0.status == .badRequest)
                #expect((ServerHarness.json($0)["error"] as? [String: Any])?["field"] as? String == "events")
            }
        }
        #expect(try h.store.counts().events == 0)
    }

    @Test func healthMetricsAndTheOpenAPIDocumentAreServed() async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        try await h.app.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            _ = try await ServerHarness.ingest(client, ServerHarness.log(users: 1, days: 1).events, token: "token-acme-0123456789")
            try await client.execute(uri: "/metrics", method: .get) {
                #expect(String(buffer: $0.body).contains("fetchsched_events_accepted_total"))
            }
            try await client.execute(uri: "/openapi.json", method: .get) {
                let doc = ServerHarness.json($0)
                #expect(doc["openapi"] as? String == "3.0.3")
                let paths = (doc["paths"] as? [String: Any])?.keys.sorted() ?? []
                #expect(paths.contains("/v1/events") && paths.contains("/v1/users/{user}/apps/{app}/plan"))
            }
        }
    }
}
