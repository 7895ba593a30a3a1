import FetchCore
import FetchStorage
import PostgresNIO

/// Every stored event in time order across users, ties in the order of the users' ids, then of
/// kind, app, value and occurrence: the SQLite store's order. Both stores number users in the
/// order a log first names them, so a trace (or an HTML report) of a PostgreSQL store is the one
/// the SQLite store gives for the same ingest.
///
/// The events come through a cursor a batch at a time, on a connection of its own in one
/// read-only, repeatable-read transaction: memory holds one batch, and the run reads one
/// snapshot of the store.
public struct PostgresTimeOrderSource: UsageEventBatches {
    public let users = NameTable()
    public let apps = NameTable()
    private let store: PostgresStore
    private let connection: PostgresConnection
    /// The watch on the cursor's connection, apart from the pool's: connection ids are unique
    /// within the pool, and this connection is not the pool's.
    private let watch = ConnectionCloseWatch()
    private var userIDs: [Int32: Int32] = [:]
    private var appIDs: [Int32: Int32] = [:]
    private var exhausted = false

    /// The rows one read of the cursor takes.
    static var batch: Int { 8192 }
    static let cursor = "events_in_time_order"
    /// A stored row: ts, user id, kind, app, value, UTC offset, Unix form.
    typealias Row = (Int64, Int32, Int16, Int32, Int16, Int16, Bool)

    /// Opens the transaction and the cursor on `connection`, and reads the names of users and apps.
    nonisolated(nonsending) init(store: PostgresStore, connection: PostgresConnection) async throws {
        self.store = store
        self.connection = connection
        let logger = store.logger
        let (users, apps) = try await Self.reading(store, connection, watch) { () -> ([(Int32, String)], [(Int32, String)]) in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            var users: [(Int32, String)] = [], apps: [(Int32, String)] = []
            for try await row in try await connection.query("SELECT id, user_name FROM user_versions ORDER BY id", logger: logger)
                .decode((Int32, String).self) {
                users.append(row)
            }
            for try await row in try await connection.query("SELECT id, name FROM apps ORDER BY id", logger: logger)
                .decode((Int32, String).self) {
                apps.append(row)
            }
            try await connection.query(PostgresQuery(unsafeSQL: """
                DECLARE \(Self.cursor) NO SCROLL CURSOR FOR
                SELECT ts, user_id, kind, app, value, utc_offset, unix_form FROM events
                ORDER BY ts, user_id, kind, app, value, occurrence
                """), logger: logger)
            return (users, apps)
        }
        for (id, name) in users { userIDs[id] = self.users.id(name) }
        for (id, name) in apps { appIDs[id] = self.apps.id(name) }
    }

    nonisolated(nonsending) public mutating func nextBatch() async throws -> [UsageEvent]? {
        while !exhausted {
            let batch = try await read()
            if !batch.isEmpty { return batch }
        }
        return nil
    }

    /// Runs `body`, a read on the cursor's connection: an error as ``PostgresStore/reading(_:)``
    /// gives it, and the store called unavailable when the connection closes before the answer
    /// (the server went away): PostgresNIO leaves a query written to a closed connection
    /// unanswered (``ConnectionCloseWatch``).
    nonisolated(nonsending) static func reading<T: Sendable>(_ store: PostgresStore, _ connection: PostgresConnection,
                                                            _ watch: ConnectionCloseWatch,
                                                            _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await store.reading {
            try await watch.run(on: connection, grace: store.connectionWait, failure: {
                StoreUnavailable("the connection closed before the events were read")
            }, body)
        }
    }

    /// Reads the cursor's next batch.
    nonisolated(nonsending) private mutating func read() async throws -> [UsageEvent] {
        let (connection, logger) = (connection, store.logger)
        let rows = try await Self.reading(store, connection, watch) { () -> [Row] in
            var rows: [Row] = []
            rows.reserveCapacity(Self.batch)
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: "FETCH FORWARD \(Self.batch) FROM \(Self.cursor)"),
                                                             logger: logger).decode(Row.self) {
                rows.append(row)
            }
            return rows
        }
        exhausted = rows.count < Self.batch
        var batch: [UsageEvent] = []
        batch.reserveCapacity(rows.count)
        for (ts, user, kind, app, value, offset, unix) in rows {
            guard let id = userIDs[user] else { throw InputError("store '\(store.location)' holds an event of a user it has no name for") }
            batch.append(try StoredRow.event(time: ts, user: id, app: app == 0 ? -1 : (appIDs[app] ?? -1), kind: Int64(kind),
                                             value: Int64(value), offset: Int64(offset), unixForm: unix, userName: users[id]))
        }
        return batch
    }
}

extension PostgresStore {
    /// Calls `body` with every stored event in time order (``PostgresTimeOrderSource``), read on
    /// a connection of its own that is closed when `body` returns or throws.
    nonisolated(nonsending) func withEventsInTimeOrder<R>(_ body: (inout PostgresTimeOrderSource) async throws -> R) async throws -> R {
        let (url, logger) = (url, logger)
        let connection = try await reading {
            try await PostgresConnection.connect(configuration: try url.connectionConfiguration(), id: 1, logger: logger)
        }
        let result: Result<R, any Error>
        do {
            var source = try await PostgresTimeOrderSource(store: self, connection: connection)
            result = .success(try await body(&source))
        } catch {
            result = .failure(error)
        }
        // Closing the connection ends its read-only transaction.
        try? await connection.close()
        return try result.get()
    }
}
