import FetchClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdTesting
import Testing

/// FetchClient, generated from the OpenAPI document, against the service on a real socket:
/// every write and read, and the errors as typed responses.
struct ClientTests {
    static let token = "token-acme-0123456789"
    typealias Event = Components.Schemas.Event

    static func events(_ rows: [[String: String]]) -> [Event] {
        rows.map { Event(id: $0["id"]!, user: $0["user"]!, timestamp: $0["timestamp"]!,
                         event: Event.EventPayload(rawValue: $0["event"]!)!, app: $0["app"], value: $0["value"]) }
    }

    /// The background-refresh loop of docs/cli.md ("A typed Swift client"), as written there (`scheduleNextRefresh` returns here).
    static func refresh(_ client: Client, userID: String, now: String, fetchStart: String) async throws
        -> (next: String?, plan: Components.Schemas.Plan?) {
        _ = try await client.ingestEvents(body: .json(.init(events: [
            .init(id: UUID().uuidString, user: userID, timestamp: now, event: .open, app: "com.example.news"),
        ])))
        var next: String?, seen: Components.Schemas.Plan?
        func scheduleNextRefresh(at time: String?) { next = time }
        switch try await client.plan(path: .init(user: userID, app: "com.example.news")) {
        case .ok(let ok):
            let plan = try ok.body.json
            seen = plan
            scheduleNextRefresh(at: plan.plan.first?.time)
        case .notFound:
            break
        default:
            break
        }
        _ = try await client.reportFetch(path: .init(user: userID), body: .json(.init(
            app: "com.example.news", start: fetchStart, durationMs: 1_800, bytes: 120_000,
            network: .wifi, result: .newData)))
        return (next, seen)
    }

    /// The same client over either transport: AsyncHTTPClient (a server's) or URLSession (a device's).
    @Test(arguments: ["AsyncHTTPClient", "URLSession"])
    func theGeneratedClientDrivesALiveServer(transport: String) async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        let (_, rows) = ServerHarness.log(users: 1, days: 3)
        let user = "user-0001", app = "com.example.news"
        try await h.app.test(.live) { test in
            let url = URL(string: "http://127.0.0.1:\(try #require(test.port))")!
            let client = transport == "URLSession"
                ? Client.live(serverURL: url, token: Self.token, session: URLSession(configuration: .ephemeral))
                : Client.live(serverURL: url, token: Self.token)

            let batch = Self.events(rows)
            let first = try await client.ingestEvents(body: .json(.init(events: batch))).ok.body.json
            #expect(first.accepted == rows.count && first.duplicates == 0)
            let retry = try await client.ingestEvents(body: .json(.init(events: batch))).ok.body.json
            #expect(retry.accepted == 0 && retry.duplicates == rows.count)

            let plan = try await client.plan(path: .init(user: user, app: app)).ok.body.json
            #expect(plan.user == user && plan.app == app && plan.interval == "minimum")

            let interval = try await client.setInterval(path: .init(user: user, app: app), body: .json(.init(interval: "custom:2h")))
            _ = try interval.ok
            #expect(try await client.plan(path: .init(user: user, app: app)).ok.body.json.interval == "custom:2h")

            let start = try #require(rows.last?["timestamp"])
            let report = Components.Schemas.FetchReport(app: app, start: start, durationMs: 2_000, bytes: 150_000, network: .wifi, result: .newData)
            #expect(try await client.reportFetch(path: .init(user: user), body: .json(report)).ok.body.json.recorded)
            let budget = try await client.budget(path: .init(user: user)).ok.body.json
            #expect(budget.user == user && budget.energyUsedJoules > 0 && budget.energyLeftJoules < budget.energyBudgetJoules)

            // Errors come back as the documented cases, with the error body typed.
            guard case .badRequest(let bad) = try await client.setInterval(path: .init(user: user, app: app), body: .json(.init(interval: "sometimes"))) else {
                Issue.record("an invalid interval is not a 400"); return
            }
            #expect(try bad.body.json.error.field == "interval")
            guard case .notFound = try await client.plan(path: .init(user: "nobody", app: app)) else {
                Issue.record("an unknown user is not a 404"); return
            }
            guard case .unauthorized = try await Client.live(serverURL: url).budget(path: .init(user: user)) else {
                Issue.record("a request without a token is not a 401"); return
            }

            // The loop schedules the plan's first timed fetch; a plan without one says why (its
            // fetches are at wakes), and the loop then schedules none.
            let (next, seen) = try await Self.refresh(client, userID: user, now: start, fetchStart: start)
            let looped = try #require(seen, "docs/cli.md's loop got no plan")
            #expect(next != nil || (looped.reason != nil && looped.triggers.contains { $0.fetch }), "no fetch planned, timed or at a wake")

            let deleted = try await client.deleteUser(path: .init(user: user)).ok.body.json
            #expect(deleted.user == user && deleted.deletedEvents == rows.count + 1)
            guard case .notFound = try await client.plan(path: .init(user: user, app: app)) else {
                Issue.record("a deleted user still has a plan"); return
            }
        }
    }
}
