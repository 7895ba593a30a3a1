import FetchAPI
import FetchCore
@testable import FetchServer
import HTTPTypes
import FetchStorage
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 64 at the service: one name in one form, one token for one tenant, no store details
/// in an answer, and a request that trickles in is cut off.
struct EdgeServerTests {
    /// After events for `josé` composed, the decomposed name in a path is refused, and deleting
    /// it deletes nothing; events under the decomposed name are refused too.
    @Test func aDecomposedNameInAPathOrABodyIsRefusedNotReadAsTheComposedOne() async throws {
        let h = try ServerHarness()
        let events = ServerHarness.log(users: 1, days: 2).events.map { e in var e = e; e["user"] = "jos\u{E9}"; return e }
        try await h.app.test(.router) { client in
            _ = try await ServerHarness.ingest(client, events)
            for (method, uri) in [(HTTPRequest.Method.get, "/v1/users/jose%CC%81/apps/com.example.news/plan"),
                                  (.get, "/v1/users/jose%CC%81/budget"), (.delete, "/v1/users/jose%CC%81")] {
                try await client.execute(uri: uri, method: method) {
                    #expect($0.status == .badRequest, "\(uri)")
                    #expect(String(buffer: $0.body).contains("NFC"), "\(String(buffer: $0.body))")
                }
            }
            let decomposed = events.prefix(3).map { e in var e = e; e["user"] = "jose\u{301}"; return e }
            try await client.execute(uri: "/v1/events", method: .post, body: ServerHarness.body(["events": decomposed])) {
                #expect($0.status == .badRequest)
            }
            try await client.execute(uri: "/v1/users/jos%C3%A9/budget", method: .get) { #expect($0.status == .ok) }
        }
        #expect(try h.store.counts().events == events.count)
    }

    @Test func aTokenGivenToTwoTenantsIsRefused() throws {
        let path = NSTemporaryDirectory() + "tokens-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = #"{"tokens": [{"token": "same-token-0123456789", "tenant": "acme"}, {"token": "other-token-0123456", "tenant": "acme"},"#
            + #" {"token": "same-token-0123456789", "tenant": "globex"}]}"#
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: TokenError.self) { _ = try TokenTable.load(path: path) }
        do { _ = try TokenTable.load(path: path) } catch {
            #expect("\(error)".contains("tokens[2].token") && "\(error)".contains("tokens[0]"), "\(error)")
        }
    }

    /// The store's user, host, port and database go to the log; the client hears only that the
    /// store is unavailable.
    @Test func aStoreUnavailableAnswerNamesNoStoreDetail() {
        let error = StoreUnavailable("no connection to 'postgres://fetch:***@db.internal:5432/prod' within 3.0 seconds")
        let api = ErrorMiddleware.apiError(error)
        #expect(api.status == .serviceUnavailable)
        for secret in ["fetch", "db.internal", "5432", "prod", "postgres://"] { #expect(!api.message.contains(secret), "\(api.message)") }
    }

    /// A body sent a byte at a time, never idle for the read timeout, is cut off once the whole
    /// request has taken three read timeouts.
    @Test func aBodyThatTricklesInIsCutOff() async throws {
        let h = try ServerHarness(limits: ServiceLimits(readTimeoutMs: 400))
        try await h.app.test(.live) { client in
            let port = try #require(client.port)
            let raw = try SlowClientTests.RawClient(port: port, guardSeconds: 30)
            raw.send("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
            let (sent, closed) = await SlowClientTests.RawClient.offPool { () -> (Int, Bool) in
                // A byte every 100 ms, well inside the read timeout, for at most 20 s.
                for i in 0..<200 {
                    let n = "x".withCString { Glibc.send(raw.fd, $0, 1, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { return (i, true) }
                    var poller = pollfd(fd: raw.fd, events: Int16(POLLIN), revents: 0)
                    if poll(&poller, 1, 100) == 1 {
                        var byte: UInt8 = 0
                        if recv(raw.fd, &byte, 1, Int32(MSG_PEEK)) <= 0 { return (i, true) }
                    }
                }
                return (200, false)
            }
            #expect(closed, "the connection was kept for the whole trickle")
            #expect(sent < 40, "cut off after \(sent) bytes at 10 a second")
        }
    }

    /// A body whose client went away before its end: a 400 saying so, not a 413.
    @Test func aBodyCutOffByItsClientIsNotCalledTooLarge() async throws {
        struct Cut: Error {}
        let parts = AsyncThrowingStream<ByteBuffer, any Error> { c in
            c.yield(ByteBuffer(string: #"{"events": ["#))
            c.finish(throwing: Cut())
        }
        let request = Request(head: HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/v1/events"),
                              body: .init(asyncSequence: parts))
        do {
            _ = try await FetchServer.RequestBody.decode(API.EventBatch.self, from: request, limit: 1 << 20)
            Issue.record("a cut body was read")
        } catch let error as APIError {
            #expect(error.status == .badRequest && error.message.contains("did not arrive whole"), "\(error.message)")
        }
        let large = Request(head: HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/v1/events"),
                            body: .init(buffer: ByteBuffer(string: String(repeating: " ", count: 2_000))))
        await #expect(throws: APIError.self) { _ = try await FetchServer.RequestBody.decode(API.EventBatch.self, from: large, limit: 1_000) }
        do { _ = try await FetchServer.RequestBody.decode(API.EventBatch.self, from: large, limit: 1_000) } catch let error as APIError {
            #expect(error.status == .contentTooLarge)
        }
    }
}
