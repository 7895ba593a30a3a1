import FetchPostgres
import Foundation
import PostgresNIO

/// A fresh database on the PostgreSQL cluster named by `FETCHSCHED_PG_URL` (started by
/// `scripts/pg-cluster.sh`, as `.ci/run` does), for one test.
///
/// Without the variable the PostgreSQL cases are skipped when run by hand (gate them with
/// `.enabled(if: TestDatabase.isConfigured)`, so `swift test` reports them as skipped), and fail
/// under `CI=true`: CI must not pass by skipping them.
public struct TestDatabase: Sendable {
    /// The fresh database's URL.
    public let url: String
    let name: String
    let admin: String

    /// The cluster's URL, or nil when none is configured.
    public static var clusterURL: String? {
        ProcessInfo.processInfo.environment["FETCHSCHED_PG_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a missing cluster is a failure (under CI) rather than a reason to skip.
    public static var required: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Whether the PostgreSQL cases run: a cluster is given, or CI requires one (and then a
    /// missing cluster fails them).
    public static var isConfigured: Bool { clusterURL != nil || required }

    /// Makes an empty database; throws when no cluster is configured.
    public static func make() async throws -> TestDatabase {
        guard let admin = clusterURL else {
            throw SetupError(required ? "CI=true but FETCHSCHED_PG_URL is not set: start scripts/pg-cluster.sh"
                                      : "FETCHSCHED_PG_URL is not set: gate the test with .enabled(if: TestDatabase.isConfigured)")
        }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await Self.admin(admin) { client in
            try await client.query("CREATE DATABASE \(unescaped: name)")
        }
        var c = URLComponents(string: admin)!
        c.path = "/" + name
        return TestDatabase(url: c.string!, name: name, admin: admin)
    }

    /// Runs `body` with a patient store (``patientStore()``) on a fresh database, then closes the
    /// store and drops the database, whether `body` returns or throws.
    public static func withStore(_ body: (PostgresStore) async throws -> Void) async throws {
        let db = try await make()
        let store: PostgresStore
        do {
            store = try await db.patientStore()
        } catch {
            try await db.drop()
            throw error
        }
        do {
            try await body(store)
        } catch {
            await store.close()
            try await db.drop()
            throw error
        }
        await store.close()
        try await db.drop()
    }

    /// A store on this database for a test of what is stored, not of how long a request may wait:
    /// each request waits as long as another's locks take, where the service gives up after 3 s
    /// (a loaded CI machine kept a deletion racing an ingest past that). The tests of the wait
    /// itself open their stores with theirs.
    public func patientStore() async throws -> PostgresStore {
        try await PostgresStore(url: url, connectionWait: .seconds(60))
    }

    /// An outage of this database alone: new connections are refused and those open are ended,
    /// as when its server stops, while the cluster keeps serving the other tests.
    public func block() async throws {
        try await Self.admin(admin) { client in
            try await client.query("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS false")
            try await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(name)")
        }
    }

    /// Ends the outage ``block()`` began.
    public func unblock() async throws {
        try await Self.admin(admin) { client in
            try await client.query("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS true")
        }
    }

    /// Drops the database (closing what is still connected to it).
    public func drop() async throws {
        try await Self.admin(admin) { client in
            try await client.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)")
        }
    }

    private static func admin(_ url: String, _ body: (PostgresClient) async throws -> Void) async throws {
        let parsed = try PostgresURL(url)
        let client = PostgresClient(configuration: .init(host: parsed.host, port: parsed.port, username: parsed.user,
                                                         password: parsed.password, database: parsed.database, tls: .disable))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }

    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }
}
