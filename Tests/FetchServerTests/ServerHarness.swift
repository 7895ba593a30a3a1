import FetchBench
import FetchCore
import FetchServer
import FetchStorage
import FetchTesting
import FetchSQLite
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus

/// A service on a fresh store in a temporary folder, and helpers to talk to it as JSON.
struct ServerHarness: Sendable {
    let dir: String
    let store: SQLiteStore
    let service: SchedulerService
    let registry = PrometheusCollectorRegistry()
    let settings: ServerSettings

    static let tokens = TokenTable([("token-acme-0123456789", "acme"), ("token-globex-012345678", "globex")])

    /// Tests on sockets run alongside many others on two cores: a long read timeout keeps a busy
    /// moment from closing their client's connection (SlowClientTests set their own).
    init(tokens: TokenTable? = nil, limits: ServiceLimits = ServiceLimits(readTimeoutMs: 300_000), scenario: Scenario = .default,
         maxUsersInMemory: Int? = nil, policy: String = "adaptive") throws {
        dir = TestFolders.make("server")
        store = try SQLiteStore(path: dir + "/store.sqlite")
        service = SchedulerService(store: store, scenario: scenario, seed: 1, policy: PolicySpec.parse(policy) as! any PlanningPolicy,
                                   metrics: PrometheusMetricsFactory(registry: registry),
                                   maxUsersInMemory: maxUsersInMemory ?? SchedulerService.defaultMaxUsersInMemory)
        settings = ServerSettings(host: "127.0.0.1", port: 0, tokens: tokens, limits: limits)
    }

    var app: some ApplicationProtocol {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return buildApplication(service: service, settings: settings, registry: registry, logger: logger)
    }

    /// A generated log as CSV rows (without the header), and the same rows as API events.
    static func log(users: Int, days: Int, seed: UInt64 = 1) -> (csv: String, events: [[String: String]]) {
        let csv = SyntheticLog.csv(users: users, days: days, seed: seed)
        var events: [[String: String]] = []
        for (i, line) in csv.split(separator: "\n").dropFirst().enumerated() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var e = ["id": "e\(i)", "timestamp": f[0], "user": f[1], "event": f[3]]
            if !f[2].isEmpty { e["app"] = f[2] }
            if !f[4].isEmpty { e["value"] = f[4] }
            events.append(e)
        }
        return (csv, events)
    }

    static func body(_ object: Any) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
    }

    static func json(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
    }

    static func headers(_ token: String?) -> HTTPFields {
        var h: HTTPFields = [.contentType: "application/json"]
        if let token { h[.authorization] = "Bearer \(token)" }
        return h
    }

    /// Posts events in batches; returns the statuses.
    static func ingest(_ client: some TestClientProtocol, _ events: [[String: String]], token: String? = nil,
                       batch: Int = 2_000) async throws -> [HTTPResponse.Status] {
        var statuses: [HTTPResponse.Status] = []
        var i = 0
        while i < events.count {
            let part = Array(events[i..<min(events.count, i + batch)])
            statuses.append(try await client.execute(uri: "/v1/events", method: .post, headers: headers(token),
                                                     body: body(["events": part])) { $0.status })
            i += batch
        }
        return statuses
    }
}

extension Data {
    init(buffer: ByteBuffer) { self = buffer.withUnsafeReadableBytes { Data($0) } }
}
