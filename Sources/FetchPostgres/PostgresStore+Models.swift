import FetchCore
import FetchStorage
import NIOCore
import PostgresNIO

/// Usage models learned after an ingest, as the SQLite driver stores them.
extension PostgresStore {
    /// Learns the models of these users from all their stored events and stores them: one
    /// query streams the users' events in key order (user first), and the models go back in
    /// batches, so the round trips do not grow with the users. Returns how many were learned.
    ///
    /// The users' ids and their events are read in two statements outside one transaction: a
    /// user deleted in between is missed, one added in between has no events here to learn.
    @discardableResult
    public func learnModels(users: [String]) async throws -> Int {
        let wanted = Set(users).sorted()
        let appNames = NameTable()
        var appIDs: [Int32: Int32] = [:]
        for try await (id, name) in try await client.query("SELECT id, name FROM apps ORDER BY id", logger: logger)
            .decode((Int32, String).self) {
            appIDs[id] = appNames.id(name)
        }
        var pending: [(user: String, model: UsageModel)] = []
        var learned = 0
        var current: (user: String, model: UsageModel)?
        var names: [Int32: String] = [:]
        for try await (id, name) in try await client.query("SELECT id, user_name FROM user_versions WHERE user_name = ANY(\(wanted))",
                                                           logger: logger).decode((Int32, String).self) {
            names[id] = name
        }
        let rows = try await client.query("""
            SELECT user_id, ts, kind, app, value, utc_offset, unix_form FROM events WHERE user_id = ANY(\(Array(names.keys)))
            ORDER BY user_id, ts, kind, app, value, occurrence
            """, logger: logger).decode((Int32, Int64, Int16, Int32, Int16, Int16, Bool).self)
        for try await (id, ts, kind, app, value, offset, unix) in rows {
            let user = names[id] ?? ""
            if current?.user != user {
                if let done = current { pending.append(done) }
                current = (user, UsageModel())
            }
            current!.model.observe(try StoredRow.event(time: ts, user: 0, app: app == 0 ? -1 : (appIDs[app] ?? -1), kind: Int64(kind),
                                                       value: Int64(value), offset: Int64(offset), unixForm: unix, userName: user))
        }
        if let done = current { pending.append(done) }
        for start in stride(from: 0, to: pending.count, by: 1_000) {
            let part = Array(pending[start..<min(pending.count, start + 1_000)])
            try await saveModels(part, apps: appNames)
            learned += part.count
        }
        return learned
    }

    /// Replaces the stored models of these users, in one transaction.
    nonisolated(nonsending) func saveModels(_ models: [(user: String, model: UsageModel)], apps: NameTable) async throws {
        var (users, names, blobs) = ([String](), [String](), [ByteBuffer]())
        for (user, model) in models {
            let records = model.records { apps[$0] }
            users += Array(repeating: user, count: records.apps.count + 1)
            names += [""] + records.apps.map(\.name)
            blobs += [ByteBuffer(bytes: records.user)] + records.apps.map { ByteBuffer(bytes: $0.bytes) }
        }
        let (u, n, b) = (users, names, blobs)
        try await transaction { [self] conn in
            try await conn.query("DELETE FROM models WHERE user_name = ANY(\(models.map(\.user)))", logger: logger)
            try await conn.query("""
                INSERT INTO models (user_name, app, data) SELECT * FROM unnest(\(u)::text[], \(n)::text[], \(b)::bytea[])
                """, logger: logger)
        }
    }
}
