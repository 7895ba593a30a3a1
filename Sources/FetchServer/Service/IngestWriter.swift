import FetchStorage
import FetchSQLite

/// Group commit for event ingest: batches that arrive while a transaction is being written
/// wait and go into the next one together, each in its own savepoint (still all or nothing),
/// and every request is answered only after the commit that holds its batch.
actor IngestWriter {
    let store: any ServiceStore
    private var pending: [(events: [IdentifiedEvent], reply: CheckedContinuation<AppendOutcome, any Error>)] = []
    private var writing = false

    init(store: any ServiceStore) { self.store = store }

    func append(_ events: [IdentifiedEvent]) async throws -> AppendOutcome {
        try await withCheckedThrowingContinuation { reply in
            pending.append((events, reply))
            if !writing {
                writing = true
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
        writing = false
    }
}
