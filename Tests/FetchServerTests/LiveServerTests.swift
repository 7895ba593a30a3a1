import FetchServer
import Hummingbird
import HummingbirdTesting
import Testing

/// The same application on a real socket (port chosen by the system).
struct LiveServerTests {
    @Test func eventsGoInAndAPlanComesOutOverTCP() async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        let (_, events) = ServerHarness.log(users: 1, days: 4)
        try await h.app.test(.live) { client in
            #expect(try await ServerHarness.ingest(client, events, token: "token-acme-0123456789") == [.ok])
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/plan", method: .get,
                                     headers: ServerHarness.headers("token-acme-0123456789")) { response in
                #expect(response.status == .ok)
                #expect(ServerHarness.json(response)["user"] as? String == "user-0001")
            }
        }
        #expect(try h.store.counts().events == events.count)
    }
}
