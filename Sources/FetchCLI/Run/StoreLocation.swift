import FetchCore
import FetchPostgres
import FetchStorage
import FetchSQLite

/// Where `--db` points: a `postgres://` URL names a PostgreSQL store, anything else a SQLite
/// file. The one place that chooses the driver; everything else uses ``ServiceStore``.
enum StoreLocation {
    static let help = "The store: a SQLite file, or a postgres://user@host[:port]/database URL."

    static func isPostgres(_ db: String) -> Bool { PostgresURL.matches(db) }

    /// The store the service, `next` and a replay use, opened; failures are a clear ``CLIError``. A
    /// `writer` (the service) claims a SQLite file for itself (``WriterLock``).
    static func open(_ db: String, writer: Bool = false) async throws -> any ServiceStore {
        do {
            if isPostgres(db) { return try await PostgresStore(url: db) }
            return try SQLiteStore(path: db, writer: writer, existing: !writer)
        } catch let e as InputError {
            throw CLIError(e.description)
        }
    }

    /// Opens the store, runs `body` on it, closes it; a database error is a clear ``CLIError``, a
    /// log's ``LogError`` passes through. A `writer` claims a SQLite file (``open(_:writer:)``).
    static func read<T: Sendable>(_ db: String, writer: Bool = false, _ body: (any ServiceStore) async throws -> T) async throws -> T {
        let store = try await open(db, writer: writer)
        let result: Result<T, any Error>
        do { result = .success(try await body(store)) } catch { result = .failure(error) }
        await close(store)
        do {
            return try result.get()
        } catch let e as InputError {
            throw CLIError(e.description)
        } catch let e as CLIError {
            throw e
        } catch let e as LogError {
            throw e  // a log's own error: the caller says what became of the store
        } catch {
            throw CLIError("store '\(store.location)': \(store.message(for: error))")
        }
    }

    /// Closes what ``open(_:writer:)`` opened.
    static func close(_ store: any ServiceStore) async {
        await store.close()
    }
}
