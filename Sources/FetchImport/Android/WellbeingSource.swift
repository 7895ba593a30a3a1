import FetchCore
import GRDB

/// Reads Android's Digital Wellbeing database, `app_usage` (kept by
/// `com.google.android.apps.wellbeing` in its `databases/` directory), into rows of the log:
/// its `events` table holds Android's usage events (``AndroidEvent``) with UTC millisecond
/// times, each naming its package, and since some version the root package of its task, by
/// id in `packages`.
///
/// Read as evidence, from a private copy (``PhoneDatabase``), one event at a time in time order
/// (ties in the order recorded). The times carry no offset: the user's is given.
public enum WellbeingSource {
    /// The columns of `events` read; `task_root_package_id` too where the table has it.
    static let eventColumns = ["_id", "timestamp", "type", "package_id"]
    static let packageColumns = ["_id", "package_name"]
    static let kept = "Digital Wellbeing keeps it in /data/data/com.google.android.apps.wellbeing/databases/"

    /// The user's name as the log takes it, or the problem with it.
    public static func checkUser(_ name: String) throws(ImportProblem) -> String { try ImportFields.name(name, "user") }

    /// Adds the rows of every event to `log`, as `user`'s, each time in `offset`; an event that
    /// cannot be read goes to `problem` with its `_id` (nil when that is what is wrong), which
    /// stops the import or counts it. A database that is not Digital Wellbeing's is refused with
    /// what it lacks. At most `limit` events (a bound, not a sample). `directory` holds the
    /// private copy while it is read.
    public static func read(path: String, directory: String, user: String, offset: UTCOffsetRule, limit: Int = 20_000_000,
                            into log: inout ImportedLog, problem: (ImportProblem, Int64?) throws -> Void) throws {
        let database = try PhoneDatabase(path: path, directory: directory, name: "app_usage", what: "a Digital Wellbeing app_usage database",
                                         refusal: "not Digital Wellbeing")
        do {
            try database.queue.read { db in
                try database.checkTable(db, "events", columns: eventColumns, kept: kept)
                try database.checkTable(db, "packages", columns: packageColumns, kept: kept)
                let hasTaskRoot = try Row.fetchAll(db, sql: "SELECT name, hidden FROM pragma_table_xinfo('events')").contains {
                    ($0["name"] as String?)?.lowercased() == "task_root_package_id" && ($0["hidden"] as Int64? ?? 0) == 0
                }
                let sql = """
                    SELECT e._id, e.timestamp, e.type, e.package_id, p.package_name,
                           \(hasTaskRoot ? "e.task_root_package_id, r.package_name" : "NULL, NULL"), p._id, \(hasTaskRoot ? "r._id" : "NULL")
                    FROM events e LEFT JOIN packages p ON p._id = e.package_id
                    \(hasTaskRoot ? "LEFT JOIN packages r ON r._id = e.task_root_package_id" : "")
                    ORDER BY e.timestamp, e._id LIMIT ?
                    """
                let cursor = try Row.fetchCursor(db, sql: sql, arguments: [limit + 1])
                var count = 0
                while let row = try cursor.next() {
                    count += 1
                    guard count <= limit else { throw ImportProblem("too large", "\(path) has more than \(limit) events") }
                    let event = stored(row)
                    do throws(ImportProblem) {
                        try add(event, user: user, offset: offset, into: &log)
                    } catch {
                        try problem(error, event.id)
                    }
                }
            }
        } catch let e as DatabaseError {
            throw PhoneDatabase.unreadable(path, e, what: "a Digital Wellbeing app_usage database")
        }
    }

    /// One event as stored: each value, or nil where it is of the wrong kind, with what it was.
    struct Stored {
        var id: Int64?
        var millis: Int64?
        var time: String
        var code: Int64?
        var type: String
        var package: String?
        var packageID: String
        var taskRoot: String?
        var taskRootID: String?
        /// Whether `package_id` (and `task_root_package_id`) is an integer, as every key is.
        var packageKeyed = false, taskRootKeyed = true
        /// What the package rows found hold as their name, where one was found (`NULL`, `a blob`).
        var packageName: String?, taskRootName: String?
    }

    /// The event of a row of the query (``read(path:directory:user:offset:limit:into:problem:)``).
    static func stored(_ row: Row) -> Stored {
        let values: [DatabaseValue] = (0..<9).map { row[$0] }
        var e = Stored(id: nil, millis: nil, time: PhoneDatabase.kind(of: values[1]), code: nil, type: PhoneDatabase.kind(of: values[2]),
                       package: nil, packageID: PhoneDatabase.kind(of: values[3]), taskRoot: nil, taskRootID: nil)
        if case .int64(let n) = values[0].storage { e.id = n }
        if case .int64(let n) = values[1].storage { e.millis = n; e.time = "\(n)" }
        if case .double(let d) = values[1].storage { e.time = "\(d)" }
        if case .int64(let n) = values[2].storage { e.code = n; e.type = "\(n)" }
        if case .int64(let n) = values[3].storage { (e.packageID, e.packageKeyed) = ("\(n)", true) }
        if !values[7].isNull { e.packageName = PhoneDatabase.kind(of: values[4]) }
        if !values[8].isNull { e.taskRootName = PhoneDatabase.kind(of: values[6]) }
        if case .string(let s) = values[4].storage { e.package = s }
        if !values[5].isNull {
            e.taskRootID = PhoneDatabase.kind(of: values[5])
            e.taskRootKeyed = false
            if case .int64(let n) = values[5].storage { (e.taskRootID, e.taskRootKeyed) = ("\(n)", true) }
        }
        if case .string(let s) = values[6].storage { e.taskRoot = s }
        return e
    }

    /// Adds one event's row: its time, its type by code, its package (or the root of its task).
    static func add(_ e: Stored, user: String, offset: UTCOffsetRule, into log: inout ImportedLog) throws(ImportProblem) {
        if e.id == nil { throw ImportProblem("bad _id", "_id is not an integer key") }
        let millis = e.millis ?? -1
        if !InputBounds.timestamps.contains(millis) {
            throw ImportProblem("bad time", "timestamp \(e.time) is not Unix milliseconds between 1970 and 2100")
        }
        let code = e.code ?? -1
        if !(0...9999).contains(code) {
            throw ImportProblem("unknown event type", "type is \(e.type), not an event type code from 0 to 9999")
        }
        // One rule per column: a key is an integer, as _id and type are, and a name is text.
        guard e.packageKeyed else { throw ImportProblem("bad package", "package_id is \(e.packageID), not an integer key") }
        guard let package = e.package else {
            throw ImportProblem("bad package", e.packageName.map { "package \(e.packageID)'s package_name is \($0), not text" }
                                ?? "package_id \(e.packageID) names no package in packages")
        }
        if let rootID = e.taskRootID {
            guard e.taskRootKeyed else { throw ImportProblem("bad package", "task_root_package_id is \(rootID), not an integer key") }
            if e.taskRoot == nil {
                throw ImportProblem("bad package", e.taskRootName.map { "package \(rootID)'s package_name is \($0), not text" }
                                    ?? "task_root_package_id \(rootID) names no package in packages")
            }
        }
        let kind = try AndroidEvent.kind(type: AndroidEvent.typeName(code: Int(code)), package: package, taskRoot: e.taskRoot, className: nil,
                                         log: &log)
        if let kind { log.append(ImportedRow(user: user, millis: millis, offsetMinutes: offset.offsetAt(millis), kind: kind)) }
    }
}
