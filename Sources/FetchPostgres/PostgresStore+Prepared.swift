import FetchStorage
import PostgresNIO

/// The statements the store's writes share (the version rows' lock and step), prepared once on
/// each connection (PostgresNIO's `PostgresPreparedStatement`) rather than parsed and planned
/// on every call: the database's statement statistics under the ingest route's load showed
/// their planning (Benchmarks/HISTORY.md). Their text is here and nowhere else; the call of
/// the group function (``PostgresStore/AppendGroup``) is prepared beside the function.
///
/// Each has a short name of its own, within the 63 bytes PostgreSQL keeps of a name: the
/// default, the type's full name, is longer, and the two locks' would share their first 63.
extension PostgresStore {
    /// Locks the version rows of `users`, in name order, and reads their integer ids
    /// (``PostgresStore/lockVersions(_:_:_:)``); `Lock` says how the rows are held.
    struct LockVersionRows<Lock: VersionRowLock>: PostgresPreparedStatement {
        static var name: String { "fetchsched_lock_\(Lock.name)" }
        static var sql: String { "SELECT user_name, id FROM user_versions WHERE user_name = ANY($1) ORDER BY user_name \(Lock.clause)" }
        typealias Row = (String, Int32)
        var users: [String]

        func makeBindings() -> PostgresBindings {
            var b = PostgresBindings()
            b.append(users)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Moves each user's version a step (``PostgresStore/bumpVersions(_:_:)``): rows of the
    /// versions before (step 0), then each step's new value by its number.
    ///
    /// Its plan is kept for every call, made without knowing how many steps come (a service's
    /// write has one, a command line's ingest one per user of the log): the sequence's values
    /// are handed to the steps by their place in one sorted array, not by a join, so that no
    /// plan for a few rows can make it quadratic in many.
    struct StepVersions: PostgresPreparedStatement {
        static let name = "fetchsched_steps"
        static let sql = """
            WITH old AS (SELECT user_name, version FROM user_versions WHERE user_name = ANY($1)),
                 taken AS (SELECT array_agg(v ORDER BY v) AS vs FROM (SELECT nextval('store_version') AS v FROM unnest($1::text[])) t),
                 steps AS (SELECT s.u, s.n, taken.vs[s.n] AS v FROM unnest($1::text[]) WITH ORDINALITY AS s(u, n), taken),
                 moved AS (UPDATE user_versions x SET version = l.v
                           FROM (SELECT DISTINCT ON (u) u, v FROM steps ORDER BY u, n DESC) l
                           WHERE x.user_name = l.u RETURNING 1)
            SELECT user_name, 0::int8, version FROM old
            UNION ALL SELECT u, n, v FROM steps
            """
        typealias Row = (String, Int64, Int64)
        var stepUsers: [String]

        func makeBindings() -> PostgresBindings {
            var b = PostgresBindings()
            b.append(stepUsers)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }
}

/// How ``PostgresStore/LockVersionRows`` holds the rows it locks.
protocol VersionRowLock: Sendable {
    static var clause: String { get }
    /// The end of its statement's name.
    static var name: String { get }
}

extension PostgresStore {
    /// A write about the user: queues behind any other, not behind an ingest's hold.
    enum NoKeyUpdate: VersionRowLock {
        static var clause: String { "FOR NO KEY UPDATE" }
        static var name: String { "write" }
    }

    /// An ingest's hold: only a deletion of the row waits for it.
    enum KeyShare: VersionRowLock {
        static var clause: String { "FOR KEY SHARE" }
        static var name: String { "hold" }
    }
}
