import FetchCore
import FetchStorage
import PostgresNIO

/// Every stored event, user by user (names in order), each user's in time order: what a replay
/// needs, with memory bounded by the largest user's history rather than the store.
///
/// A synchronous source over an async client (``Blocking``): use it from a thread outside
/// Swift's cooperative pool, as the command line does.
public struct PostgresEventSource: UsageEventSource {
    public let users = NameTable()
    public let apps = NameTable()
    private let store: PostgresStore
    private let names: [String]
    private let appIDs: [Int32: Int32]
    private var nextUser = 0
    private var buffer: [UsageEvent] = []
    private var position = 0

    init(store: PostgresStore) throws {
        self.store = store
        // Through the store's bounded wait for a connection, as every read of the source.
        let (stored, names) = try store.reading {
            try await store.connection(bounded: false) { conn in
                var apps: [(Int32, String)] = []
                for try await (id, name) in try await conn.query("SELECT id, name FROM apps ORDER BY id", logger: store.logger)
                    .decode((Int32, String).self) {
                    apps.append((id, name))
                }
                var names: [String] = []
                for try await name in try await conn.query("""
                    SELECT v.user_name FROM user_versions v
                    WHERE EXISTS (SELECT 1 FROM events e WHERE e.user_id = v.id) ORDER BY v.user_name
                    """, logger: store.logger).decode(String.self) {
                    names.append(name)
                }
                return (apps, names)
            }
        }
        self.names = names
        var appIDs: [Int32: Int32] = [:]
        for (id, name) in stored { appIDs[id] = apps.id(name) }
        self.appIDs = appIDs
    }

    public var progress: Double? { names.isEmpty ? 1 : Double(nextUser) / Double(names.count) }

    public mutating func next() throws -> UsageEvent? {
        while position == buffer.count {
            guard nextUser < names.count else { return nil }
            let name = names[nextUser]
            nextUser += 1
            let (store, id, appIDs) = (store, users.id(name), appIDs)
            buffer = try store.reading {
                // Through the store's bounded wait: the pool would wait for a connection without end
                // while the server is down.
                try await store.connection(bounded: false) { conn in try await store.events(user: name, id: id, appIDs: appIDs, conn) }
            }
            position = 0
        }
        defer { position += 1 }
        return buffer[position]
    }
}

extension PostgresStore {
    /// Runs a read from synchronous code; a database error becomes a clear ``InputError``.
    /// `gone`, when given, may abandon the wait (``Blocking/run(_:abandoning:)``).
    func reading<T: Sendable>(_ body: @escaping @Sendable () async throws -> T,
                              abandoning gone: (() -> (any Error)?)? = nil) throws -> T {
        do {
            return try Blocking.run(body, abandoning: gone)
        } catch let e as InputError {
            throw e
        } catch {
            throw InputError("store '\(location)': \(Self.describe(error))")
        }
    }

    /// Every stored event, for a replay (``PostgresEventSource``).
    public func eventSource() throws -> PostgresEventSource { try PostgresEventSource(store: self) }

    /// User by user (``PostgresEventSource``), or with `timeOrder` in time order
    /// (``PostgresTimeOrderSource``).
    public func withEventSource<R>(timeOrder: Bool, _ body: (inout any UsageEventSource) throws -> R) throws -> R {
        if timeOrder { return try withEventsInTimeOrder { source in
            var any: any UsageEventSource = source
            return try body(&any)
        } }
        var source: any UsageEventSource = try eventSource()
        return try body(&source)
    }
}
