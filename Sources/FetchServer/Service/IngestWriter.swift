import FetchStorage

/// Group commit for event ingest: batches that arrive while a transaction is being written
/// wait and go into the next one together, each still all or nothing (``ServiceStore/appendGroup(_:)``
/// says how each store keeps it so), and every request is answered only after the commit that
/// holds its batch.
///
/// A store with one writer (SQLite) has one transaction in flight; a store with several
/// (PostgreSQL, ``ServiceStore/writers``) has up to that many, each on its own connection.
/// Two groups about one user then queue on the user's version row, and a session that sees
/// their outcomes out of order is dropped and built again (``UserSlot/update(_:_:)``).
actor IngestWriter {
    let store: any ServiceStore
    private var pending: [(events: [IdentifiedEvent], reply: CheckedContinuation<AppendOutcome, any Error>)] = []
    /// Transactions being written, at most the store's ``ServiceStore/writers``.
    private var writing = 0

    init(store: any ServiceStore) { self.store = store }

    func append(_ events: [IdentifiedEvent]) async throws -> AppendOutcome {
        try await withCheckedThrowingContinuation { reply in
            pending.append((events, reply))
            if writing < store.writers {
                writing += 1
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while !pending.isEmpty {
            let group = pending
            pending = []
            do {
                let results = try await store.appendGroup(group.map(\.events))
                for (job, result) in zip(group, results) { job.reply.resume(with: result) }
            } catch {
                for job in group { job.reply.resume(throwing: error) }
            }
        }
        writing -= 1
    }
}
