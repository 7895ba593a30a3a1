import FetchCore
import FetchServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 34: one rule for names at every door. A name is never rewritten on the way in, so the
/// path and the body cannot read one name as two or two names as one; and no answer shows the
/// tenant prefix under which the store keeps a user.
struct NameRuleTests {
    static let acme = "token-acme-0123456789"

    @Test(arguments: [
        ("DELETE", "/v1/users/%EF%BB%BFuser-0001", "user"),
        ("GET", "/v1/users/%EF%BB%BFuser-0001/budget", "user"),
        ("PUT", "/v1/users/user-0001/apps/%EF%BB%BFcom.example.news/interval", "app"),
        ("GET", "/v1/users/user-0001/apps/%EF%BB%BFcom.example.news/plan", "app"),
        ("GET", "/v1/users/user%ZZ0001/budget", "user"),
        ("GET", "/v1/users/user-0001/apps/%C3%28/plan", "app"),
        ("GET", "/v1/users/user%00x/budget", "user"),
    ])
    func aPathNameSomeDecoderWouldRewriteIsRefusedAndTouchesNothing(method: String, uri: String, field: String) async throws {
        let h = try ServerHarness()
        let (_, events) = ServerHarness.log(users: 1, days: 3)
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            try await client.execute(uri: uri, method: HTTPRequest.Method(method)!, body: ServerHarness.body(["interval": "never"])) {
                #expect($0.status == .badRequest, "\(uri)")
                #expect((ServerHarness.json($0)["error"] as? [String: Any])?["field"] as? String == field)
            }
            // The user without the mark is untouched: still there, and its news app still planned.
            try await client.execute(uri: "/v1/users/user-0001/apps/com.example.news/plan", method: .get) {
                #expect($0.status == .ok)
                #expect((ServerHarness.json($0)["reason"] as? String)?.contains("never") != true)
            }
        }
        #expect(try h.store.counts().events == events.count)
    }

    @Test func aBodyNameWithAByteOrderMarkIsRefusedAsThePathsIs() async throws {
        let h = try ServerHarness()
        var marked = Array(ServerHarness.log(users: 1, days: 1).events.prefix(3))
        marked[0]["user"] = "\u{FEFF}user-0001"
        let events = marked
        try await h.app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": events])) {
                #expect($0.status == .badRequest)
                #expect(String(buffer: $0.body).contains("U+FEFF"))
            }
        }
        #expect(try h.store.counts().events == 0)
    }

    @Test func aPercentEncodedNameIsTheNameItEncodes() async throws {
        let h = try ServerHarness()
        let events = ServerHarness.log(users: 1, days: 2).events.map { e in var e = e; e["user"] = "ann é/1"; return e }
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            try await client.execute(uri: "/v1/users/ann%20%C3%A9%2F1/budget", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func noAnswerShowsTheTenantPrefix() async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        let (_, events) = ServerHarness.log(users: 1, days: 3)
        try await h.app.test(.router) { client in
            #expect(try await ServerHarness.ingest(client, events, token: Self.acme) == [.ok])
            for uri in ["/v1/users/user-0001/apps/com.example.nothing/plan", "/v1/users/nobody/budget",
                        "/v1/users/user-0001/apps/com.example.news/plan?at=2025-01-01T00:00:00Z", "/v1/users/user-0001/budget"] {
                try await client.execute(uri: uri, method: .get, headers: ServerHarness.headers(Self.acme)) { response in
                    let body = String(buffer: response.body)
                    #expect(!body.contains("acme/") && !body.contains("/user-0001"), "\(uri): \(body.prefix(300))")
                }
            }
        }
    }
}
