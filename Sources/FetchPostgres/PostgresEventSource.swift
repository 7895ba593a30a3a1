import FetchCore
import FetchStorage
import PostgresNIO

/// Every stored event, user by user (names in order), each user's in time order: what a replay
/// needs, with memory bounded by the largest user's history rather than the store. A batch is
/// one user's events, read on a pooled connection.
public struct PostgresEventSource: UsageEventBatches {
    public let users = NameTable()
    public let apps = NameTable()
    private let store: PostgresStore
    private let names: [String]
    private let appIDs: [Int32: Int32]
    private var nextUser = 0

    nonisolated(nonsending) init(store: PostgresStore) async throws {
        self.store = store
        // Through the store's bounded wait for a connection, as every read of the source.
        let (stored, names) = try await store.reading {
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

    nonisolated(nonsending) public mutating func nextBatch() async throws -> [UsageEvent]? {
        while nextUser < names.count {
            let name = names[nextUser]
            nextUser += 1
            let (store, id, appIDs) = (store, users.id(name), appIDs)
            let events = try await store.reading {
                // Through the store's bounded wait: the pool would wait for a connection without end
                // while the server is down.
                try await store.connection(bounded: false) { conn in try await store.events(user: name, id: id, appIDs: appIDs, conn) }
            }
            if !events.isEmpty { return events }
        }
        return nil
    }
}

extension PostgresStore {
    /// Runs a read of a replay's source; a database error becomes a clear ``InputError``.
    nonisolated(nonsending) func reading<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let e as InputError {
            throw e
        } catch {
            throw InputError("store '\(location)': \(Self.describe(error))")
        }
    }

    /// Every stored event, for a replay (``PostgresEventSource``).
    nonisolated(nonsending) public func eventSource() async throws -> PostgresEventSource { try await PostgresEventSource(store: self) }

    /// User by user (``PostgresEventSource``), or with `timeOrder` in time order
    /// (``PostgresTimeOrderSource``).
    nonisolated(nonsending) public func withEventBatches<R>(timeOrder: Bool,
                                                            _ body: (inout any UsageEventBatches) async throws -> R) async throws -> R {
        if timeOrder { return try await withEventsInTimeOrder { source in
            var any: any UsageEventBatches = source
            return try await body(&any)
        } }
        var source: any UsageEventBatches = try await eventSource()
        return try await body(&source)
    }
}
