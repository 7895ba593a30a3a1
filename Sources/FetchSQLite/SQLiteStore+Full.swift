import FetchStorage
import GRDB

extension SQLiteStore {
    /// The error as a caller maps it: SQLite's full disk as ``StoreFull``, naming the file; any
    /// other as it is.
    func mapped(_ error: any Error) -> any Error {
        guard let e = error as? DatabaseError, e.resultCode == .SQLITE_FULL else { return error }
        return StoreFull("store '\(location)': \(e.message ?? "database or disk is full")")
    }

    /// Runs `write`, a full disk thrown as ``StoreFull``.
    func mappingFull<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch {
            throw mapped(error)
        }
    }

    /// A write of the service's (``DatabasePool/write(_:)``), a full disk thrown as ``StoreFull``.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await mappingFull { try await pool.write(updates) }
    }
}
