import FetchCore
import FetchStore
import NIOCore
import PostgresNIO

/// Usage models learned after an ingest, as the SQLite driver stores them.
extension PostgresStore {
    /// Learns the models of these users from all their stored events and stores them, one user
    /// at a time (the events table is keyed by user first). Returns how many were learned.
    @discardableResult
    public func learnModels(users: [String]) async throws -> Int {
        let appNames = NameTable()
        var appIDs: [Int32: Int32] = [:]
        for try await (id, name) in try await client.query("SELECT id, name FROM apps ORDER BY id", logger: logger)
            .decode((Int32, String).self) {
            appIDs[id] = appNames.id(name)
        }
        var learned = 0
        for user in Set(users).sorted() {
            let events = try await client.withConnection { conn in try await self.events(user: user, id: 0, appIDs: appIDs, conn) }
            guard !events.isEmpty else { continue }
            var model = UsageModel()
            for e in events { model.observe(e) }
            let records = model.records { appNames[$0] }
            let names = [""] + records.apps.map(\.name)
            let blobs = [records.user] + records.apps.map(\.bytes)
            try await transaction { conn in
                try await conn.query("DELETE FROM models WHERE user_name = \(user)", logger: logger)
                try await conn.query("""
                    INSERT INTO models (user_name, app, data)
                    SELECT \(user), a, d FROM unnest(\(names)::text[], \(blobs.map { ByteBuffer(bytes: $0) })::bytea[]) AS t(a, d)
                    """, logger: logger)
            }
            learned += 1
        }
        return learned
    }
}
