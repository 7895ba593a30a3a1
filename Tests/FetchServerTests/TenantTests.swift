import FetchServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Bearer tokens scope every request to one tenant; tenants never see each other's users.
struct TenantTests {
    let acme = "token-acme-0123456789", globex = "token-globex-012345678"

    @Test(arguments: [nil, "Bearer nope", "Basic dXNlcjpwYXNz"])
    func aRequestWithoutAValidTokenIs401(header: String?) async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        try await h.app.test(.router) { client in
            var headers: HTTPFields = [:]
            if let header { headers[.authorization] = header }
            try await client.execute(uri: "/v1/users/user-0001/budget", method: .get, headers: headers) {
                #expect($0.status == .unauthorized)
                #expect((ServerHarness.json($0)["error"] as? [String: Any])?["field"] as? String == "Authorization")
            }
        }
    }

    @Test func aTenantNeverReadsOrWritesAnotherTenantsUsers() async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        let (_, events) = ServerHarness.log(users: 1, days: 3)
        try await h.app.test(.router) { client in
            #expect(try await ServerHarness.ingest(client, events, token: acme) == [.ok])
            for uri in ["/v1/users/user-0001/budget", "/v1/users/user-0001/apps/com.example.news/plan"] {
                try await client.execute(uri: uri, method: .get, headers: ServerHarness.headers(globex)) { #expect($0.status == .notFound) }
                try await client.execute(uri: uri, method: .get, headers: ServerHarness.headers(acme)) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/v1/users/user-0001", method: .delete, headers: ServerHarness.headers(globex)) {
                #expect($0.status == .notFound)
            }
            // The same event ids and user name under another tenant are another user's events.
            let first = Array(events.prefix(10))
            try await client.execute(uri: "/v1/events", method: .post, headers: ServerHarness.headers(globex),
                                     body: ServerHarness.body(["events": first])) {
                #expect(ServerHarness.json($0)["accepted"] as? Int == 10)
            }
            try await client.execute(uri: "/v1/users/user-0001", method: .delete, headers: ServerHarness.headers(globex)) {
                #expect(ServerHarness.json($0)["deletedEvents"] as? Int == 10)
            }
            try await client.execute(uri: "/v1/users/user-0001/budget", method: .get, headers: ServerHarness.headers(acme)) {
                #expect($0.status == .ok)
            }
        }
        #expect(try h.store.counts().events == events.count)
    }
}
