import FetchCore
import GRDB
import GRDBSQLite

/// A phone's SQLite database read as evidence (iOS's knowledgeC.db, Digital Wellbeing's
/// app_usage): nothing beside it is created or changed, and what a hostile file can cost is
/// bounded.
///
/// SQLite itself would make a `-shm` (and an empty `-wal`) beside a WAL-mode database even when
/// opened read-only, rewrite an existing `-shm`, and fail on read-only media; so the file, with
/// its `-wal` or hot `-journal` when there is one, is copied into a private directory
/// (``DatabaseCopy``) and read there, where SQLite may replay the WAL or roll the journal back.
/// No function with side effects runs from the schema, no value over ``maxValueBytes`` is made
/// (checked before a value is built), and no generated column or virtual table is read (a tiny
/// file could compute gigabytes).
struct PhoneDatabase {
    /// The longest value SQLite may make while reading: a package or bundle id is at most 200 bytes.
    static let maxValueBytes: Int32 = 65_536

    let path: String
    /// What the database is, for messages (`a knowledgeC.db`).
    let what: String
    /// The reason a database that is not one is refused with (`not knowledgeC`).
    let refusal: String
    /// The queue on the private copy, whose files are already unlinked.
    let queue: DatabaseQueue

    /// Opens a private copy of `path`, made in `directory` as `name`.
    init(path: String, directory: String, name: String, what: String, refusal: String) throws {
        (self.path, self.what, self.refusal) = (path, what, refusal)
        let copy = try DatabaseCopy(of: path, in: directory, name: name, what: what)
        defer { copy.remove() }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, PhoneDatabase.maxValueBytes)
        }
        do {
            queue = try DatabaseQueue(path: copy.database, configuration: configuration)
            // The first read replays the WAL or rolls back the journal in the copy; then the copy
            // is unlinked, so that a run stopped by a signal leaves nothing behind it.
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            throw Self.unreadable(path, error, what: what)
        }
    }

    /// Refuses a database whose `table` is missing or would compute rather than store what is
    /// read: a view, a virtual table, a generated column among `columns`; or lacks one of
    /// `columns`. `kept` says where the phone keeps the database, for the first case.
    func checkTable(_ db: Database, _ table: String, columns: [String], kept: String) throws {
        let found = try Row.fetchAll(db, sql: "SELECT type, sql FROM sqlite_master WHERE name = ? COLLATE NOCASE", arguments: [table])
        guard let entry = found.first, found.count == 1, entry["type"] as String? == "table" else {
            throw ImportProblem(refusal, "\(path) has no \(table) table: not \(what) (\(kept))")
        }
        if let sql = entry["sql"] as String?, sql.uppercased().hasPrefix("CREATE VIRTUAL") {
            throw ImportProblem(refusal, "\(path): \(table) is a virtual table: not \(what) this reads")
        }
        // `hidden` is 2 for a virtual generated column, 3 for a stored one.
        let described = try Row.fetchAll(db, sql: "SELECT name, hidden FROM pragma_table_xinfo(?)", arguments: [table])
        var present: Set<String> = []
        for column in described {
            let name = (column["name"] as String? ?? "").uppercased()
            present.insert(name)
            if columns.contains(where: { $0.uppercased() == name }), let hidden = column["hidden"] as Int64?, hidden == 2 || hidden == 3 {
                throw ImportProblem(refusal, "\(path): \(table)'s \(name) is a generated column: not \(what) this reads")
            }
        }
        let missing = columns.filter { !present.contains($0.uppercased()) }
        guard missing.isEmpty else {
            throw ImportProblem(refusal, "\(path): \(table) has no \(missing.joined(separator: ", ")): not \(what) this reads")
        }
    }

    /// A number column's value: an integer or a real, nil for anything else.
    static func number(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .int64(let n): Double(n)
        case .double(let d): d
        default: nil
        }
    }

    /// What a value is, for a message.
    static func kind(of value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64: "an integer"
        case .double: "a real"
        case .string: "text"
        case .blob: "a blob"
        }
    }

    /// A database that cannot be read, in SQLite's own words: "not an SQLite database" only when
    /// SQLite says so.
    static func unreadable(_ path: String, _ error: any Error, what: String) -> any Error {
        guard let e = error as? DatabaseError else { return error }
        switch e.resultCode {
        case .SQLITE_NOTADB:
            return ImportProblem("not SQLite", "\(path) is not an SQLite database")
        case .SQLITE_TOOBIG:
            return ImportProblem("too large", "\(path): a value is larger than \(maxValueBytes) bytes: not \(what) this reads")
        default:
            return ImportProblem("unreadable", "\(path) cannot be read as an SQLite database: \(e.message ?? "\(e.resultCode)")")
        }
    }
}
