import FetchCore
import FetchStorage
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// The PostgreSQL store (PostgresNIO): events, event ids, intervals, reported fetches, models
/// and per-user versions, with the promises of ``ServiceStore`` for several service instances
/// on one database.
///
/// Every table of a user's data has the user (the stored name, or for `events` the user's
/// integer id) as the first column of its primary key, so the schema can be distributed by
/// user (docs/cli.md, "Serving on PostgreSQL", says how). The schema is made and migrated by
/// the program (``migrations``), under an advisory lock so that instances starting together
/// do not race. The client's connection pool runs in a task the
/// store owns until ``close()``.
public final class PostgresStore: ServiceStore {
    let client: PostgresClient
    let logger: Logger
    /// The URL without its password, for messages.
    public let location: String
    /// The URL, for a connection of its own outside the pool (``withEventBatches(timeOrder:_:)``).
    let url: PostgresURL
    private let running: Task<Void, Never>
    /// The listener of version changes, started by ``watchVersions(_:)``.
    let watcher = VersionWatcher()
    /// Ends a request's wait when its connection closes under it.
    let closeWatch = ConnectionCloseWatch()

    /// Other instances may write to the same database: the service checks versions.
    public var isShared: Bool { true }

    /// Groups of batches written at once, each on a connection of its own: a second group in
    /// flight hides the first's round trip. More groups would mostly wait for each other's locks
    /// on the same users' version rows, and make each group smaller.
    public var writers: Int { 2 }

    /// How long a request waits for a connection before the store is called unavailable.
    let connectionWait: Duration

    /// Connects to the database at `url` (``PostgresURL``) and brings its schema up to date.
    /// A request that gets no connection within `connectionWait` fails with ``StoreUnavailable``.
    public init(url: String, maxConnections: Int = 16, connectionWait: Duration = .seconds(3)) async throws {
        self.connectionWait = connectionWait
        let parsed = try PostgresURL(url)
        self.url = parsed
        location = parsed.redacted
        var configuration = parsed.configuration
        configuration.options.maximumConnections = max(1, maxConnections)
        client = PostgresClient(configuration: configuration)
        logger = Logger(label: "fetchsched.postgres")
        let client = client
        running = Task { await client.run() }
        do {
            let logger = logger
            try await withThrowingTaskGroup(of: Void.self) { group in
                // One connection of its own first: the pool retries a failed connection quietly, so
                // only a direct one says why (a wrong password, no such database, no TLS).
                group.addTask {
                    let probe = try await PostgresConnection.connect(configuration: try parsed.connectionConfiguration(), id: 0, logger: logger)
                    try await probe.close()
                    try await client.query("SELECT 1", logger: logger)
                }
                // The pool retries a refused connection quietly; a command waits only so long.
                group.addTask {
                    try await Task.sleep(for: Self.connectWait)
                    throw InputError("no connection within \(Self.connectWait) (is the server up, and the URL right?)")
                }
                defer { group.cancelAll() }
                try await group.next()
            }
            try await migrate()
        } catch {
            running.cancel()
            throw InputError("cannot open the store '\(location)': \(Self.describe(error))")
        }
    }

    /// Tells `receive` of every change of a user's version as it commits (a trigger on
    /// `user_versions` notifies the channel ``VersionWatcher/channel``), until ``close()``.
    public func watchVersions(_ receive: @escaping @Sendable (VersionNews) -> Void) {
        watcher.start(client: client, logger: logger, statement: { [weak self] in try await self?.run($0) }, receive: receive)
    }

    public func catchUpVersions() async throws {
        try await watcher.catchUp { [weak self] in try await self?.run($0) }
    }

    /// Runs one statement on a pooled connection, within the store's waits (``connection(_:)``).
    func run(_ statement: PostgresQuery) async throws {
        try await connection { [logger] conn in _ = try await conn.query(statement, logger: logger) }
    }

    /// How long opening the store waits for a first connection.
    static let connectWait = Duration.seconds(10)

    /// Stops the connection pool; the store cannot be used afterwards.
    public func close() async {
        await watcher.stop()
        running.cancel()
        _ = await running.value
    }

    deinit { running.cancel() }

    public func message(for error: any Error) -> String { Self.describe(error) }

    /// A clear message for a database error: PostgresNIO's own description hides the server's
    /// message, which is what a person needs (it holds no query values).
    public static func describe(_ error: any Error) -> String {
        if let e = error as? PSQLError {
            if let message = e.serverInfo?[.message] {
                return "\(message) (SQLSTATE \(e.serverInfo?[.sqlState] ?? "?"))"
            }
            switch e.code {
            case .sslUnsupported: return "the server does not offer TLS, which sslmode=require asks for"
            case .connectionError, .serverClosedConnection, .failedToAddSSLHandler:
                return "\(e.code)" + (e.underlying.map { ": \($0)" } ?? "")
            default: return "\(e.code)"
            }
        }
        if let e = error as? InputError { return e.description }
        return "\(error)"
    }

    /// Whether `error` is one to retry the transaction for: a deadlock or a serialization
    /// failure between concurrent writers, as PostgreSQL asks, and the key conflicts two
    /// instances' legitimate writes can meet (a unique key, or a foreign key to an app another
    /// instance's deletion removed, or kept, meanwhile). A retry reads what the other committed,
    /// so no client gets a 5xx for a write that was valid.
    static func isRetryable(_ error: any Error) -> Bool {
        guard let state = (error as? PSQLError)?.serverInfo?[.sqlState] else { return false }
        return ["40P01", "40001", "23505", "23503"].contains(state)
    }

    /// Runs `body` in a transaction on one connection: committed when it returns, rolled back
    /// when it throws. Retried (from the start) on a conflict with another writer
    /// (``isRetryable(_:)``), a few times at most. A `bounded` one (a request's write) fails
    /// within ``connectionWait`` when the database stops answering, with nothing stored then or
    /// later (``withinDeadline(_:_:_:)``); migrations and the models' writes take as long as they take.
    func transaction<R: Sendable>(readOnly: Bool = false, bounded: Bool = false,
                                  _ body: @escaping @Sendable (PostgresConnection) async throws -> R) async throws -> R {
        try await retrying(bounded: false) { [self, logger] conn in
            try await withinDeadline(conn, bounded ? connectionWait : nil) { commitSent in
                try await conn.query(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", logger: logger)
                do {
                    let value = try await body(conn)
                    commitSent.withLockedValue { $0 = true }
                    try await conn.query("COMMIT", logger: logger)
                    return value
                } catch {
                    await Self.rollBack(conn, logger: logger)
                    throw error
                }
            }
        }
    }

    /// Rolls back the transaction open on `conn` after its work failed, unless the connection has
    /// closed: the server ended the transaction with it, and PostgresNIO never answers a statement
    /// written to a closed connection.
    static func rollBack(_ conn: PostgresConnection, logger: Logger) async {
        guard !conn.isClosed else { return }
        _ = try? await conn.query("ROLLBACK", logger: logger)
    }

    /// Runs `body` on a pooled connection, again from the start on a conflict with another
    /// writer (``isRetryable(_:)``), a few times at most: a single statement, which is its own
    /// transaction, or a whole transaction (``transaction(readOnly:_:)``, which bounds its own
    /// time: `bounded` false).
    func retrying<R: Sendable>(bounded: Bool = true, _ body: @escaping @Sendable (PostgresConnection) async throws -> R) async throws -> R {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await connection(bounded: bounded, body)
            } catch where attempt < 8 && Self.isRetryable(error) {
                continue
            }
        }
    }
}

extension PostgresStore {
    /// Runs `body` on a pooled connection, or throws ``StoreUnavailable`` when none comes within
    /// ``connectionWait`` (the server is down or unreachable): the pool would otherwise retry
    /// quietly and the request wait without end. The wait is cancelled with the request, so a
    /// write that gave up is never run later. A connection that closes under `body` ends the
    /// wait too (``ConnectionCloseWatch``), ``connectionWait`` after the close.
    ///
    /// A `bounded` body (a request's read, a statement of its own) must also be done within
    /// ``connectionWait`` of getting its connection, or the connection is closed and the request
    /// fails as unavailable (``withinDeadline(_:_:_:)``): a connection handed back with a statement
    /// still unanswered on it (an `UNLISTEN` written to a listener the database no longer serves)
    /// would otherwise hold every request that gets it. A replay's reads, which may be long, are
    /// not bounded.
    func connection<R: Sendable>(bounded: Bool = true, _ body: @escaping @Sendable (PostgresConnection) async throws -> R) async throws -> R {
        let started = NIOLockedValueBox(false)
        let client = client, wait = connectionWait, watch = closeWatch, location = location
        do {
            return try await withThrowingTaskGroup(of: ConnectionOutcome<R>.self) { group in
                group.addTask { [self] in
                    .value(try await client.withConnection { conn in
                        started.withLockedValue { $0 = true }
                        return try await withinDeadline(conn, bounded ? wait : nil) { _ in
                            try await watch.run(on: conn, grace: wait, failure: {
                                StoreUnavailable("the connection to '\(location)' closed before the request was done")
                            }) { try await body(conn) }
                        }
                    })
                }
                group.addTask {
                    try await Task.sleep(for: wait)
                    return .waited
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    switch next {
                    case .value(let v): return v
                    case .waited where !started.withLockedValue({ $0 }):
                        throw StoreUnavailable("no connection to '\(location)' within \(wait)")
                    case .waited: continue
                    }
                }
                throw CancellationError()
            }
        } catch {
            throw mapped(error)
        }
    }

    /// ``StoreUnavailable``, naming the store, when `error` is a lost connection (``isConnectionLoss(_:)``,
    /// or the older error a `COPY` gives); ``StoreFull`` when the database's disk is full (SQLSTATE
    /// 53100); else `error` as it is.
    func mapped(_ error: any Error) -> any Error {
        switch error {
        case let e as PSQLError where e.serverInfo?[.sqlState] == "53100":
            StoreFull("store '\(location)': \(Self.describe(e))")
        case let e as PSQLError where Self.isConnectionLoss(e):
            StoreUnavailable("the connection to '\(location)' failed: \(Self.describe(e))")
        case PostgresError.connectionClosed:
            StoreUnavailable("the connection to '\(location)' closed")
        default:
            error
        }
    }

    /// Whether `error` means the connection, not the request, failed: the client lost it, or the
    /// server ended it (SQLSTATE class 08, a connection exception, or 57P, the server shutting
    /// down or terminating the session).
    static func isConnectionLoss(_ error: PSQLError) -> Bool {
        if let state = error.serverInfo?[.sqlState] { return state.hasPrefix("08") || state.hasPrefix("57P") }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown].contains(error.code)
    }
}

/// What came first in ``PostgresStore/connection(_:)``: the body's value, or the end of the wait.
enum ConnectionOutcome<R: Sendable>: Sendable {
    case value(R)
    case waited
}
