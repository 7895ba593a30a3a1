#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FetchStorage
import GRDB

extension SQLiteStore {
    /// The error as a caller maps it: SQLite's full disk as ``StoreFull``, naming the file; any
    /// other as it is.
    func mapped(_ error: any Error) -> any Error {
        guard let e = error as? DatabaseError, e.resultCode == .SQLITE_FULL else { return error }
        return StoreFull("store '\(location)': \(e.message ?? "database or disk is full")")
    }

    /// Runs `write`, a full disk thrown as ``StoreFull``, in the file the store opened: when its
    /// path no longer leads there (removed, or replaced) before or after, ``StoreUnavailable``.
    /// Checked after the commit too, so that nothing is acknowledged that went into a file that
    /// was already gone.
    func mappingFull<T>(_ write: () async throws -> T) async throws -> T {
        try checkFile()
        do {
            let result = try await write()
            try checkFile()
            return result
        } catch let e as StoreUnavailable {
            throw e
        } catch {
            throw mapped(error)
        }
    }

    /// Throws ``StoreUnavailable`` when the store's path no longer leads to the file it opened.
    func checkFile() throws {
        guard let opened, FileIdentity(path: path) != opened else { return }
        throw StoreUnavailable("the store file '\(location)' was removed or replaced while the service ran: nothing more is "
                               + "stored in it; restart the service on the store")
    }

    /// A write of the service's (``DatabasePool/write(_:)``), a full disk thrown as ``StoreFull``.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await mappingFull { try await pool.write(updates) }
    }
}
