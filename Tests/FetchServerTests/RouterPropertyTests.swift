import FetchCore
import FetchServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Thousands of random, mostly invalid requests across every route by one tenant never get a
/// server error and never change what another tenant is told.
struct RouterPropertyTests {
    static let acme = "token-acme-0123456789", globex = "token-globex-012345678"

    /// Values that have broken parsers before, and valid ones so that requests get deep.
    static let texts = ["", "a", "user-0001", "user-0002", "com.example.news", "com.example.chat", "user-0001\u{0}", "%00", "%2F", "..",
                        "a/b", "\u{1B}[2J", String(repeating: "x", count: 300), "99999999999999999999h", "-1", "1e308", "NaN",
                        "9999-12-31T00:00:00Z", "2099-12-31T00:00:00Z", "1969-12-31T23:59:59Z", "2025-01-07T06:00:00Z",
                        "2025-01-07T06:00:00+14:00", "custom:9999999999999d", "custom:30m", "never", "minimum", "24h", "0s",
                        "wifi", "cellular", "none", "newData", "terminated", "open", "screen_on", "battery", "silent", "101",
                        "\u{FEFF}", "é", "\u{202E}"]
    static var numbers: [Any] { [0, -1, 1, 30_000, 30_001, Int64.max, Int64.min, 1e308, -0.0, 2.5, "12", NSNull()] }

    struct Gen {
        var rng: SplitMix64
        mutating func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        mutating func chance(_ p: Double) -> Bool { rng.unit() < p }
        mutating func text() -> String { pick(Self.encodeOrNot(pick(RouterPropertyTests.texts), &self)) }
        static func encodeOrNot(_ s: String, _ g: inout Gen) -> [String] {
            [s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s, s.isEmpty ? "x" : s]
        }
        mutating func value() -> Any { chance(0.6) ? pick(RouterPropertyTests.texts) : pick(RouterPropertyTests.numbers) }
        mutating func object(_ keys: [String]) -> [String: Any] {
            var o: [String: Any] = [:]
            for k in keys where chance(0.8) { o[k] = value() }
            if chance(0.1) { o[pick(RouterPropertyTests.texts)] = value() }
            return o
        }
        mutating func body() -> ByteBuffer? {
            switch rng.next() % 6 {
            case 0: return nil
            case 1: return ByteBuffer(string: pick(["{", "[]", "null", "\"x\"", "{\"events\": 5}", String(repeating: "[", count: 5_000)]))
            case 2: return ServerHarness.body(["events": (0..<Int(rng.next() % 4)).map { _ in object(["id", "user", "timestamp", "event", "app", "value"]) }])
            case 3: return ServerHarness.body(object(["interval"]))
            case 4: return ServerHarness.body(object(["app", "start", "durationMs", "bytes", "network", "result"]))
            default:
                var e = ["id": "r\(rng.next() % 50)", "user": "user-0001", "timestamp": "2025-01-07T0\(rng.next() % 10):00:00Z",
                         "event": "open", "app": "com.example.news"]
                e[pick(Array(e.keys))] = text()
                return ServerHarness.body(["events": [e]])
            }
        }
        mutating func request() -> (HTTPRequest.Method, String) {
            let user = chance(0.5) ? pick(["user-0001", "user-0002"]) : text()
            let app = chance(0.5) ? pick(["com.example.news", "com.example.chat"]) : text()
            var query: [String] = []
            for k in ["at", "horizon"] where chance(0.4) { query.append("\(k)=\(text())") }
            let routes: [(HTTPRequest.Method, String)] = [
                (.post, "/v1/events"), (.get, "/v1/users/\(user)/apps/\(app)/plan"), (.put, "/v1/users/\(user)/apps/\(app)/interval"),
                (.post, "/v1/users/\(user)/fetches"), (.get, "/v1/users/\(user)/apps/\(app)/push"), (.get, "/v1/users/\(user)/budget"),
                (.delete, "/v1/users/\(user)"), (.get, "/health"), (.get, "/v1/\(user)"), (.get, "/v1/users/\(user)/apps/\(app)/plan/\(app)"),
            ]
            var (method, path) = pick(routes)
            // Deletions are rare, as they wipe out the state the other requests probe.
            if method == .delete && chance(0.8) { method = .get }
            if chance(0.1) { method = pick([.get, .post, .put, .delete, .patch]) }
            return (method, query.isEmpty ? path : path + "?" + query.joined(separator: "&"))
        }
    }

    /// What globex is told about its users.
    static func globexView(_ client: some TestClientProtocol) async throws -> [String] {
        var out: [String] = []
        for user in ["user-0001", "user-0002"] {
            for uri in ["/v1/users/\(user)/apps/com.example.news/plan", "/v1/users/\(user)/apps/com.example.chat/plan?horizon=48h",
                        "/v1/users/\(user)/budget", "/v1/users/\(user)/apps/com.example.news/push"] {
                out.append(try await client.execute(uri: uri, method: .get, headers: ServerHarness.headers(globex)) {
                    "\($0.status.code) \(String(buffer: $0.body))"
                })
            }
        }
        return out
    }

    @Test(arguments: [UInt64(1), 2])
    func randomRequestsNeverFailTheServerNorTouchAnotherTenant(seed: UInt64) async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens, maxUsersInMemory: 3)
        let (_, events) = ServerHarness.log(users: 2, days: 3)
        try await h.app.test(.router) { client in
            for token in [Self.acme, Self.globex] {
                #expect(try await ServerHarness.ingest(client, events, token: token).allSatisfy { $0 == .ok })
            }
            let before = try await Self.globexView(client)
            var g = Gen(rng: SplitMix64(seed: seed))
            var statuses: [Int: Int] = [:]
            for _ in 0..<1_500 {
                let (method, uri) = g.request()
                let token = g.chance(0.95) ? Self.acme : g.pick(["bogus-token-000000000", ""])
                let status = try await client.execute(uri: uri, method: method, headers: ServerHarness.headers(token.isEmpty ? nil : token),
                                                      body: g.body()) { response in
                    #expect(response.status.code < 500, "\(method) \(uri): \(String(buffer: response.body))")
                    if response.status.code >= 400 {
                        #expect(ServerHarness.json(response)["error"] != nil, "\(method) \(uri): \(String(buffer: response.body))")
                    }
                    return Int(response.status.code)
                }
                statuses[status, default: 0] += 1
            }
            #expect(try await Self.globexView(client) == before)
            // Most requests are refused, but some get through to real work.
            #expect(statuses[200, default: 0] > 20 && statuses[400, default: 0] > 300, "\(statuses)")
        }
    }
}
