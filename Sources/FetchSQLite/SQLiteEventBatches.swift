import FetchCore
import FetchStorage
import GRDB

/// The store's events a batch at a time, read on a snapshot's connection of its own: each read
/// runs on the snapshot's serial queue, so a replay waits for SQLite without holding a thread of
/// Swift's pool, and every batch comes from the same state of the store.
///
/// In time order across users SQLite sorts the events, with its temporary storage on disk, so
/// memory holds no more than its sort's runs.
struct SQLiteEventBatches: UsageEventBatches {
    /// The events a batch holds at most.
    static var size: Int { 8192 }
    let users: NameTable
    let apps: NameTable
    private let snapshot: DatabaseSnapshot
    private let cursor: Cursor
    private let location: String
    private var exhausted = false

    /// The statement mid-read, kept between reads. Touched only within the snapshot's reads,
    /// which its serial queue runs one at a time, hence `@unchecked Sendable`.
    private final class Cursor: @unchecked Sendable {
        var source: StoreEventSource?
    }

    /// The source's name tables, handed from the snapshot's queue once filled; only read after.
    private struct Names: @unchecked Sendable {
        let users: NameTable
        let apps: NameTable
    }

    nonisolated(nonsending) init(store: SQLiteStore, timeOrder: Bool) async throws {
        location = store.location
        let cursor = Cursor()
        self.cursor = cursor
        do {
            snapshot = try store.pool.makeSnapshot()
            let names = try await snapshot.read { db in
                // The connection is the snapshot's own: the setting goes with it.
                if timeOrder { try db.execute(sql: "PRAGMA temp_store = FILE") }
                let source = try StoreEventSource(db: db, timeOrder: timeOrder)
                cursor.source = source
                return Names(users: source.users, apps: source.apps)
            }
            (users, apps) = (names.users, names.apps)
        } catch let e as InputError {
            throw e
        } catch {
            throw InputError("store '\(store.location)': \(store.message(for: error))")
        }
    }

    nonisolated(nonsending) mutating func nextBatch() async throws -> [UsageEvent]? {
        guard !exhausted else { return nil }
        let cursor = cursor
        let batch: [UsageEvent]
        do {
            batch = try await snapshot.read { _ in
                var batch: [UsageEvent] = []
                batch.reserveCapacity(Self.size)
                while batch.count < Self.size, let e = try cursor.source?.next() { batch.append(e) }
                return batch
            }
        } catch let e as InputError {
            throw e
        } catch {
            throw InputError("store '\(location)': \(error)")
        }
        exhausted = batch.count < Self.size
        return batch.isEmpty ? nil : batch
    }

    /// Finalizes the statement on the snapshot's queue, before the snapshot's connection closes.
    func close() async {
        let cursor = cursor
        _ = try? await snapshot.read { _ in cursor.source = nil }
    }
}
