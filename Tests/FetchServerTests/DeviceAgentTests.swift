import DeviceAgent
import FetchClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdTesting
import Testing

/// examples/DeviceAgent against the service on a real socket, over URLSession as on a phone:
/// opens reported once, a fetch run only when the plan says now, the next refresh from the plan.
struct DeviceAgentTests {
    @Test func theDeviceLoopReportsFetchesWhenDueAndSchedulesThePlansNextTime() async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        // A phone whose log has opens but no screen events, as most real ones here: its habits are
        // fetched by the clock. Where unlocks are seen, the unlock is the cheaper moment, and a
        // plan of three days' habits may leave every fetch to it (then there is no time to schedule).
        let rows = ServerHarness.log(users: 1, days: 3).events.filter { !($0["event"] ?? "").hasPrefix("screen_") }
        let user = "user-0001", app = "com.example.news"
        try await h.app.test(.live) { test in
            let url = URL(string: "http://127.0.0.1:\(try #require(test.port))")!
            let client = Client.live(serverURL: url, token: ClientTests.token, session: URLSession(configuration: .ephemeral))
            _ = try await client.ingestEvents(body: .json(.init(events: ClientTests.events(rows)))).ok
            let opensBefore = try await client.plan(path: .init(user: user, app: app)).ok.body.json.opens

            var agent = DeviceAgent(client: client, user: user, app: app)
            let last = try #require(rows.last?["timestamp"]).replacingOccurrences(of: ".000", with: "")
            let lastDate = try #require(ISO8601DateFormatter().date(from: last))
            agent.opened(at: lastDate.addingTimeInterval(600))
            #expect(agent.outbox.count == 1)

            // Far from any planned fetch: nothing is fetched, the next refresh is the plan's first time.
            var fetched = 0
            let outcome = DeviceAgent.Outcome(durationMs: 1_500, bytes: 90_000, network: .wifi, result: .newData)
            let next = try await agent.refresh(now: lastDate.addingTimeInterval(-30 * 86_400)) { fetched += 1; return outcome }
            #expect(agent.outbox.isEmpty && fetched == 0)
            let plan = try await client.plan(path: .init(user: user, app: app)).ok.body.json
            #expect(plan.opens == opensBefore + 1)
            let first = try #require(plan.plan.first.map(\.time))
            let firstDate = try #require(ISO8601DateFormatter().date(from: first.replacingOccurrences(of: ".000", with: "")))
            #expect(next.map { abs($0.timeIntervalSince(firstDate)) < 1 } == true)

            // At the planned time: the agent fetches, the service records it.
            let due = try #require(next)
            let budgetBefore = try await client.budget(path: .init(user: user)).ok.body.json
            _ = try await agent.refresh(now: due) { fetched += 1; return outcome }
            #expect(fetched == 1)
            let budgetAfter = try await client.budget(path: .init(user: user)).ok.body.json
            #expect(budgetAfter != budgetBefore)
        }
    }
}
