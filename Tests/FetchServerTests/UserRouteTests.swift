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

/// The routes that answer about one user (plans, budgets, push advice, wakes, fetch reports,
/// intervals, deletion), through HummingbirdTesting without sockets.
struct UserRouteTests {
    @Test func aReportedFetchCountsAgainstTheBudgetAndIsIdempotent() async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 1, days: 3)
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            let before = try await client.execute(uri: "/v1/users/user-0001/budget", method: .get) { ServerHarness.json($0) }
            let last = events.last!["timestamp"]!
            let report: [String: Any] = ["app": "com.example.news", "start": last, "durationMs": 4_000, "bytes": 2_000_000,
                                         "network": "cellular", "result": "newData"]
            for expected in [true, false] {
                try await client.execute(uri: "/v1/users/user-0001/fetches", method: .post, body: ServerHarness.body(report)) {
                    #expect($0.status == .ok)
                    #expect(ServerHarness.json($0)["recorded"] as? Bool == expected)
                }
            }
            let after = try await client.execute(uri: "/v1/users/user-0001/budget", method: .get) { ServerHarness.json($0) }
            let used = try #require(after["energyUsedJoules"] as? Double), was = try #require(before["energyUsedJoules"] as? Double)
            #expect(used > was)
            #expect(after["cellularUsedBytes"] as? Int == (before["cellularUsedBytes"] as? Int ?? 0) + 2_000_000)
            var bad = report
            bad["network"] = "pigeon"
            try await client.execute(uri: "/v1/users/user-0001/fetches", method: .post, body: ServerHarness.body(bad)) {
                #expect($0.status == .badRequest)
                #expect((ServerHarness.json($0)["error"] as? [String: Any])?["field"] as? String == "network")
            }
        }
    }

    @Test func aNeverIntervalEmptiesThePlanAndSaysWhy() async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 1, days: 5)
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/interval", method: .put,
                                     body: ServerHarness.body(["interval": "never"])) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/plan", method: .get) {
                let plan = ServerHarness.json($0)
                #expect((plan["plan"] as? [Any])?.isEmpty == true)
                #expect((plan["reason"] as? String)?.contains("never") == true)
            }
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/interval", method: .put,
                                     body: ServerHarness.body(["interval": "sometimes"])) {
                #expect($0.status == .badRequest)
                #expect((ServerHarness.json($0)["error"] as? [String: Any])?["field"] as? String == "interval")
            }
            // A user the tenant does not have: not found, as for a fetch report, and nothing stored.
            try await client.execute(uri: "/v1/users/nobody/apps/com.example.news/interval", method: .put,
                                     body: ServerHarness.body(["interval": "never"])) { #expect($0.status == .notFound) }
            let rows = try await h.store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM intervals WHERE user LIKE '%nobody'") }
            #expect(rows == 0)
        }
    }

    /// Each policy gives its push advice in its own words; the "no" that holds for any policy is the same.
    @Test(arguments: [("adaptive", "likely"), ("ev-counts", "likely"), ("counts", "(counted)")])
    func pushAdviceSaysWhetherAndWhy(policy: String, words: String) async throws {
        var scenario = Scenario.default
        scenario.apps["com.example.news"] = AppSettings(interval: .minimum, content: .updates(45 * Millis.minute),
                                                        profile: scenario.defaultApp.profile)
        let h = try ServerHarness(scenario: scenario, policy: policy)
        let (_, events) = ServerHarness.log(users: 1, days: 7)
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.chat/push", method: .get) {
                let advice = ServerHarness.json($0)
                #expect(advice["push"] as? Bool == false)
                #expect((advice["reason"] as? String)?.contains("window") == true)
            }
            // Over a day of moments, the advice for news says yes at some and no at others, always with a reason.
            var answers: Set<Bool> = []
            for hour in 0..<24 {
                let at = "2025-01-13T\(hour < 10 ? "0" : "")\(hour):00:00Z"
                try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/push?at=\(at)", method: .get) {
                    let advice = ServerHarness.json($0)
                    #expect($0.status == .ok)
                    let reason = advice["reason"] as? String ?? ""
                    #expect(reason.contains(words) || reason.contains("latest update"), "\(reason)")
                    if let push = advice["push"] as? Bool { answers.insert(push) }
                }
            }
            #expect(answers == [true, false])
        }
    }

    @Test func theWakeRouteAnswersWhatTheEngineDecidesAtAScreenOnThen() async throws {
        let h = try ServerHarness()
        let (csv, events) = ServerHarness.log(users: 1, days: 8, seed: 2)
        var source = try ArraySource(csv: csv)
        var log: [UsageEvent] = []
        while let e = source.next() { log.append(e) }
        let last = log.last!.time.millis
        // Through the next day, off the tick grid and on it: the engine's rows at a screen_on then.
        let moments = (0..<10).map { step -> (at: String, engine: [String]) in
            let t = last + Int64(step) * 150 * Millis.minute + (step % 2 == 0 ? 7 * Millis.minute + 13_000 : Millis.minute)
            let wake = UsageEvent(time: Instant(millis: t), user: 0, kind: .screenOn, offsetMinutes: log.last!.offsetMinutes)
            return (LocalTime.isoText(t, offsetMinutes: 60).replacingOccurrences(of: "+", with: "%2B"),
                    SupposedWake.engineRows(events: log, users: source.users, apps: source.apps, cut: last, wake: wake))
        }
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            var fetched = 0
            for (at, engine) in moments {
                try await client.execute(uri: "/v1/users/user-0001/wake?kind=screen_on&at=\(at)", method: .get) { response in
                    #expect(response.status == .ok)
                    let body = ServerHarness.json(response)
                    let ran = (body["fetch"] as? [[String: Any]] ?? []).map {
                        SupposedWake.line(app: $0["app"] as! String, nil, $0["network"] as! String == "cellular" ? .cellular : .wifi,
                                          Int64((($0["energyJoules"] as! Double) * 1e6).rounded()), ($0["bytes"] as! NSNumber).int64Value)
                    }
                    let refused = (body["refused"] as? [[String: Any]] ?? []).map { "\($0["app"] as! String) \($0["refusedBy"] as! String)" }
                    #expect(ran == engine.filter { $0.contains(" ran ") })
                    #expect(refused == engine.filter { !$0.contains(" ran ") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
                    #expect(body["kind"] as? String == "screen_on")
                    fetched += ran.count
                }
            }
            #expect(fetched > 0)
            for (query, status) in [("kind=screen_on&at=2025-01-07T00:00:00Z", HTTPResponse.Status.badRequest), ("kind=unlock", .badRequest),
                                    ("", .badRequest), ("kind=plugged&at=2030-01-01T00:00:00Z", .badRequest)] {
                try await client.execute(uri: "/v1/users/user-0001/wake?\(query)", method: .get) { #expect($0.status == status, "\(query)") }
            }
            try await client.execute(uri: "/v1/users/nobody/wake?kind=screen_on", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test func thePlanListsWhatTheAppWouldDoAtTheWakesThatMayCome() async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 1, days: 10)
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.chat/plan", method: .get) { response in
                let triggers = ServerHarness.json(response)["triggers"] as? [[String: Any]] ?? []
                #expect(triggers.contains { $0["kind"] as? String == "screen_on" })
                #expect(triggers.allSatisfy { ($0["reason"] as? String)?.isEmpty == false && ($0["window"] as? [String])?.count == 2 })
            }
        }
    }

    /// Under every policy a plan can be made under (``PlanningPolicy``), as the service is told with `serve --policy`.
    @Test(arguments: ["adaptive", "ev-appm@0.2", "counts", "learned:0.058"])
    func theLivePlanThePlanForThatMomentAndNextAgreeAfterAnIntervalAndFetchReports(policy: String) async throws {
        let h = try ServerHarness(policy: policy)
        let (_, events) = ServerHarness.log(users: 1, days: 8)
        let mid = events[events.count / 2]["timestamp"]!, later = events[events.count / 2 + 1]["timestamp"]!
        let last = events.last!["timestamp"]!
        @Sendable func report(_ app: String, at start: String) -> ByteBuffer {
            ServerHarness.body(["app": app, "start": start, "durationMs": 3_000, "bytes": 90_000, "network": "wifi", "result": "newData"]
                               as [String: Any])
        }
        let path = h.store.path
        // `fetchsched next --db` on the same store, the built binary in its own process.
        @Sendable func next(_ app: String, at: String?) throws -> String {
            let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fetchsched")
            let r = try BoundedProcess(executable: binary, arguments: ["next", "--db", path, "--user", "user-0001", "--app", app,
                                                                       "--format", "json", "--policy", policy] + (at.map { ["--at", $0] } ?? []),
                                       limit: 120).run()
            #expect(r.status == 0, "\(r.err)")
            return r.out.trimmingCharacters(in: .newlines)
        }
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            // Both plans asked first, so that the session keeps them (``PlanMemo``) through what comes next.
            for app in ["com.example.news", "com.example.chat"] {
                _ = try await client.execute(uri: "/v1/users/user-0001/apps/\(app)/plan", method: .get)
            }
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.chat/interval", method: .put,
                                     body: ServerHarness.body(["interval": "custom:2h"])) { #expect($0.status == .ok) }
            for (app, start) in [("com.example.news", mid), ("com.example.chat", last)] {
                try await client.execute(uri: "/v1/users/user-0001/fetches", method: .post, body: report(app, at: start)) {
                    #expect($0.status == .ok)
                }
                _ = try await client.execute(uri: "/v1/users/user-0001/apps/\(app)/plan", method: .get)
            }
            for app in ["com.example.news", "com.example.chat"] {
                let live = try await client.execute(uri: "/v1/users/user-0001/apps/\(app)/plan", method: .get) { String(buffer: $0.body) }
                let atLast = try await client.execute(uri: "/v1/users/user-0001/apps/\(app)/plan?at=\(last.replacingOccurrences(of: "+", with: "%2B"))",
                                                      method: .get) { String(buffer: $0.body) }
                let past = try await client.execute(uri: "/v1/users/user-0001/apps/\(app)/plan?at=\(later.replacingOccurrences(of: "+", with: "%2B"))",
                                                    method: .get) { String(buffer: $0.body) }
                #expect(live == (try next(app, at: nil)))
                #expect(atLast == (try next(app, at: last)))
                #expect(past == (try next(app, at: later)))
                let interval = app == "com.example.chat" ? "custom:2h" : "minimum"
                #expect(live.contains("\"interval\" : \"\(interval)\"") && past.contains("\"interval\" : \"\(interval)\""))
            }
        }
    }

    @Test func deletingAUserForgetsEverything() async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 2, days: 2)
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            _ = try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/plan", method: .get)
            try await client.execute(uri: "/v1/users/user-0001", method: .delete) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/users/user-0001/budget", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/users/user-0002/budget", method: .get) { #expect($0.status == .ok) }
            // Its event ids are forgotten too: sending them again stores them anew.
            let mine = events.filter { $0["user"] == "user-0001" }
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": mine])) {
                #expect(ServerHarness.json($0)["accepted"] as? Int == mine.count)
            }
        }
    }
}
