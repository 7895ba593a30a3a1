import FetchStorage
import PostgresNIO

/// A group of batches written in a few statements instead of a few per batch (a statement is a
/// round trip, and the round trips were what a group's time went to).
extension PostgresStore {
    /// Writes every batch of the group at once, with the outcomes batch by batch would give
    /// (the same ids claimed, the same events, a version step per batch and user, chained);
    /// nil when a statement fails for another reason than a conflict with another writer: the
    /// caller then writes the group batch by batch, each all or nothing. `ids` are the users'
    /// integer ids (``lockVersions(_:_:_:)``).
    func insertAtOnce(_ batches: [[IdentifiedEvent]], ids: [String: Int32], _ conn: PostgresConnection) async throws -> [AppendOutcome]? {
        try await conn.query("SAVEPOINT at_once", logger: logger)
        do {
            let added = try await claim(batches, conn)
            let all = added.flatMap { $0 }
            var steps = Array(repeating: [String: VersionStep](), count: batches.count)
            if !all.isEmpty {
                try await insertEvents(all, ids: ids, conn)
                steps = try await bumpVersions(batchUsers: added.map { Set($0.map(\.user)).sorted() }, conn)
            }
            try await conn.query("RELEASE SAVEPOINT at_once", logger: logger)
            return zip(added, steps).map { AppendOutcome(added: $0, steps: $1) }
        } catch where !Self.isRetryable(error) {
            try await conn.query("ROLLBACK TO SAVEPOINT at_once", logger: logger)
            return nil
        } catch {
            appCache.withLockedValue { $0 = [:] }  // a conflict: the group is tried again afresh
            throw error
        }
    }

    /// Moves each user's version once for each batch that stored events of theirs, in batch
    /// order, as batch by batch would: each step starts where the user's previous one ended.
    /// The caller holds the users' version rows locked (``lockVersions(_:_:_:)``).
    private func bumpVersions(batchUsers: [[String]], _ conn: PostgresConnection) async throws -> [[String: VersionStep]] {
        let users = Array(Set(batchUsers.flatMap { $0 })).sorted()
        var current: [String: Int64] = [:]
        for try await (user, version) in try await conn.query("""
            SELECT user_name, version FROM user_versions WHERE user_name = ANY(\(users))
            """, logger: logger).decode((String, Int64).self) {
            current[user] = version
        }
        let count = batchUsers.reduce(0) { $0 + $1.count }
        var values: [Int64] = []
        for try await v in try await conn.query("SELECT nextval('store_version') FROM generate_series(1, \(count))",
                                                logger: logger).decode(Int64.self) {
            values.append(v)
        }
        values.sort()  // handed out in the order of the steps, whatever order the rows came in
        var next = values.makeIterator()
        let steps = batchUsers.map { users in
            Dictionary(uniqueKeysWithValues: users.map { user in
                let after = next.next()!
                defer { current[user] = after }
                return (user, VersionStep(before: current[user] ?? 0, after: after))
            })
        }
        try await conn.query("""
            UPDATE user_versions v SET version = t.version
            FROM unnest(\(users)::text[], \(users.map { current[$0]! })::int8[]) AS t(u, version) WHERE v.user_name = t.u
            """, logger: logger)
        return steps
    }
}
