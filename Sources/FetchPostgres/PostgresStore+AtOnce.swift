import FetchStorage
import PostgresNIO

/// A group of batches written in a few statements instead of a few per batch (a statement is a
/// round trip, and the round trips were what a group's time went to).
extension PostgresStore {
    /// Writes every batch of the group at once, with the outcomes batch by batch would give
    /// (the same ids claimed, the same events, a version step per batch and user, chained), in
    /// the caller's transaction. When a statement fails for another reason than a conflict with
    /// another writer, it throws ``AtOnceRefused``: the caller rolls the transaction back and
    /// writes the group batch by batch, each all or nothing, in a new one (a savepoint here
    /// would cost two round trips on every group for a failure that is rare). `ids` are the
    /// users' integer ids (``lockVersions(_:_:_:)``).
    func insertAtOnce(_ batches: [[IdentifiedEvent]], ids: [String: Int32], _ conn: PostgresConnection) async throws -> [AppendOutcome] {
        do {
            let added = try await claim(batches, conn)
            let all = added.flatMap { $0 }
            var steps = Array(repeating: [String: VersionStep](), count: batches.count)
            if !all.isEmpty {
                try await insertEvents(all, ids: ids, conn)
                steps = try await bumpVersions(batchUsers: added.map { Set($0.map(\.user)).sorted() }, conn)
            }
            return zip(added, steps).map { AppendOutcome(added: $0, steps: $1) }
        } catch where Self.isRetryable(error) {
            appCache.withLockedValue { $0 = [:] }  // a conflict: the group is tried again afresh
            throw error
        } catch let error as PSQLError where error.serverInfo?[.sqlState] != nil {
            throw AtOnceRefused(cause: error)
        }
    }

    /// Moves each user's version once for each batch that stored events of theirs, in batch
    /// order, as batch by batch would: each step starts where the user's previous one ended.
    /// One statement: it reads the versions before, takes a value of the store's sequence for
    /// each step (handed out in step order), and leaves each user at its last step's. Every
    /// user has a version row already (``addUsers(_:_:)``); for the steps to chain, the caller
    /// holds the rows locked (``lockVersions(_:_:_:)``), so that the versions read are the latest.
    func bumpVersions(batchUsers: [[String]], _ conn: PostgresConnection) async throws -> [[String: VersionStep]] {
        let stepUsers = batchUsers.flatMap { $0 }
        var current: [String: Int64] = [:]
        var values: [Int64] = Array(repeating: 0, count: stepUsers.count)
        for try await (user, step, value) in try await conn.execute(StepVersions(stepUsers: stepUsers), logger: logger) {
            if step == 0 { current[user] = value } else { values[Int(step) - 1] = value }
        }
        var next = values.makeIterator()
        return batchUsers.map { users in
            Dictionary(uniqueKeysWithValues: users.map { user in
                let after = next.next()!
                defer { current[user] = after }
                return (user, VersionStep(before: current[user] ?? 0, after: after))
            })
        }
    }
}

/// A group the database refused to write at once (``PostgresStore/insertAtOnce(_:ids:_:)``):
/// it is written again batch by batch; a group of one batch has failed.
struct AtOnceRefused: Error {
    /// The database's refusal.
    var cause: any Error
}
