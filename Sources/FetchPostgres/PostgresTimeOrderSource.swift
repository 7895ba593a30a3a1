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
/// snapshot of the store. Synchronous over the async client (``Blocking``), as
/// ``PostgresEventSource`` is.
public struct PostgresTimeOrderSource: UsageEventSource {
    public let users = NameTable()
    public let apps = NameTable()
    private let store: PostgresStore
    private let connection: PostgresConnection
    private var userIDs: [Int32: Int32] = [:]
    private var appIDs: [Int32: Int32] = [:]
    private var buffer: [UsageEvent] = []
    private var position = 0
    private var exhausted = false

    /// The rows one read of the cursor takes.
    static var batch: Int { 8192 }
    static let cursor = "events_in_time_order"
    /// A stored row: ts, user id, kind, app, value, UTC offset, Unix form.
    typealias Row = (Int64, Int32, Int16, Int32, Int16, Int16, Bool)

    /// Opens the transaction and the cursor on `connection`, and reads the names of users and apps.
    init(store: PostgresStore, connection: PostgresConnection) throws {
        self.store = store
        self.connection = connection
        let logger = store.logger
        let (users, apps) = try Self.reading(store, connection) { () -> ([(Int32, String)], [(Int32, String)]) in
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

    public mutating func next() throws -> UsageEvent? {
        while position == buffer.count {
            guard !exhausted else { return nil }
            try read()
        }
        defer { position += 1 }
        return buffer[position]
    }

    /// Runs `body`, a read on the cursor's connection, from this thread: an error as
    /// ``PostgresStore/reading(_:)`` gives it, and the store called unavailable when the
    /// connection closes before the answer (the server went away).
    static func reading<T: Sendable>(_ store: PostgresStore, _ connection: PostgresConnection,
                                     _ body: @escaping @Sendable () async throws -> T) throws -> T {
        try store.reading(body, abandoning: {
            connection.isClosed ? StoreUnavailable("the connection closed before the events were read") : nil
        })
    }

    private func reading<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try Self.reading(store, connection, body)
    }

    /// Reads the cursor's next batch into the buffer.
    private mutating func read() throws {
        let (connection, logger) = (connection, store.logger)
        let rows = try reading { () -> [Row] in
            var rows: [Row] = []
            rows.reserveCapacity(Self.batch)
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: "FETCH FORWARD \(Self.batch) FROM \(Self.cursor)"),
                                                             logger: logger).decode(Row.self) {
                rows.append(row)
            }
            return rows
        }
        exhausted = rows.count < Self.batch
        buffer.removeAll(keepingCapacity: true)
        position = 0
        for (ts, user, kind, app, value, offset, unix) in rows {
            guard let id = userIDs[user] else { throw InputError("store '\(store.location)' holds an event of a user it has no name for") }
            buffer.append(try StoredRow.event(time: ts, user: id, app: app == 0 ? -1 : (appIDs[app] ?? -1), kind: Int64(kind),
                                              value: Int64(value), offset: Int64(offset), unixForm: unix, userName: users[id]))
        }
    }
}

extension PostgresStore {
    /// Calls `body` with every stored event in time order (``PostgresTimeOrderSource``), read on
    /// a connection of its own that is closed when `body` returns or throws.
    func withEventsInTimeOrder<R>(_ body: (inout PostgresTimeOrderSource) throws -> R) throws -> R {
        let (url, logger) = (url, logger)
        let connection = try reading {
            try await PostgresConnection.connect(configuration: try url.connectionConfiguration(), id: 1, logger: logger)
        }
        // Closing the connection ends its read-only transaction.
        defer { try? Blocking.run { try await connection.close() } }
        var source = try PostgresTimeOrderSource(store: self, connection: connection)
        return try body(&source)
    }
}
