import FetchCore
import Foundation
import GRDB
import GRDBSQLite

/// Reads from an iOS `knowledgeC.db` the records that `import --from knowledgec` turns into a
/// usage log (``KnowledgeRecord``), in start order, one at a time.
///
/// The database is evidence: nothing beside it is created or changed. SQLite itself would make a
/// `-shm` (and an empty `-wal`) beside a WAL-mode database even when opened read-only, rewrite an
/// existing `-shm`, and fail on read-only media; so the file, with its `-wal` or hot `-journal`
/// when there is one, is copied into a private directory (``KnowledgeCCopy``) and read there,
/// where SQLite may replay the WAL or roll the journal back as it needs.
///
/// What a hostile file can cost is bounded: no generated column or virtual table is read (a tiny
/// file could compute gigabytes), no value over ``maxValueBytes`` is made (SQLite's own length
/// limit, checked before a value is built), and records are read one at a time.
public enum KnowledgeCSource {
    /// The columns of `ZOBJECT` read, as iOS 10 to 15 write them.
    static let columns = ["Z_PK", "ZSTREAMNAME", "ZSTARTDATE", "ZENDDATE", "ZSECONDSFROMGMT", "ZVALUESTRING", "ZVALUEINTEGER", "ZVALUEDOUBLE"]
    /// The longest value SQLite may make while reading: a bundle id is at most 200 bytes.
    public static let maxValueBytes: Int32 = 65_536

    /// Adds the rows of every record of the streams read to `log` (``KnowledgeRows``); a record
    /// that cannot be read goes to `problem`, which stops the import or counts it. A database that
    /// is not a knowledgeC one is refused with what it lacks. At most `limit` records (a bound,
    /// not a sample). `directory` holds the private copy while it is read.
    public static func read(path: String, directory: String, user: String, limit: Int = 20_000_000, into log: inout ImportedLog,
                            problem: (ImportProblem, KnowledgeRecord) throws -> Void) throws {
        let copy = try KnowledgeCCopy(of: path, in: directory)
        defer { copy.remove() }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Functions with side effects are not run from the schema, and no value is made larger
            // than the bound (`sqlite3_limit` is checked before SQLite builds a string or blob).
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, maxValueBytes)
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: copy.database, configuration: configuration)
            // The first read replays the WAL or rolls back the journal in the copy; then the copy
            // is unlinked, so that a run stopped by a signal leaves nothing behind it.
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            throw unreadable(path, error)
        }
        copy.remove()
        do {
            try queue.read { db in
                try checkSchema(db, path: path)
                let names = KnowledgeRecord.Stream.allCases.map(\.rawValue)
                var rows = KnowledgeRows(user: user, focusStarts: try focusStarts(db, limit: limit, path: path))
                let sql = """
                    SELECT Z_PK, ZSTREAMNAME, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT, ZVALUESTRING, ZVALUEINTEGER, ZVALUEDOUBLE
                    FROM ZOBJECT WHERE ZSTREAMNAME IN (\(names.map { _ in "?" }.joined(separator: ", ")))
                    ORDER BY ZSTARTDATE, Z_PK LIMIT ?
                    """
                let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(names) + [limit + 1])
                var count = 0
                while let row = try cursor.next() {
                    count += 1
                    guard count <= limit else { throw ImportProblem("too large", "\(path) has more than \(limit) records of the streams read") }
                    let record = Self.record(row)
                    do throws(ImportProblem) { try rows.add(record, into: &log) } catch { try problem(error, record) }
                }
            }
        } catch let e as DatabaseError {
            throw unreadable(path, e)
        }
    }

    /// Refuses a database that is not a knowledgeC one, or whose `ZOBJECT` would compute rather
    /// than store what is read: a view, a virtual table, a generated column.
    static func checkSchema(_ db: Database, path: String) throws {
        let tables = try Row.fetchAll(db, sql: "SELECT type, sql FROM sqlite_master WHERE name = 'ZOBJECT' COLLATE NOCASE")
        guard let table = tables.first, tables.count == 1, table["type"] as String? == "table" else {
            throw ImportProblem("not knowledgeC", "\(path) has no ZOBJECT table: not a knowledgeC.db "
                                + "(iOS keeps it in /private/var/mobile/Library/CoreDuet/Knowledge/)")
        }
        if let sql = table["sql"] as String?, sql.uppercased().hasPrefix("CREATE VIRTUAL") {
            throw ImportProblem("not knowledgeC", "\(path): ZOBJECT is a virtual table: not a knowledgeC.db this reads")
        }
        // `hidden` is 2 for a virtual generated column, 3 for a stored one.
        let described = try Row.fetchAll(db, sql: "SELECT name, hidden FROM pragma_table_xinfo('ZOBJECT')")
        var present: Set<String> = []
        for column in described {
            let name = (column["name"] as String? ?? "").uppercased()
            present.insert(name)
            if columns.contains(name), let hidden = column["hidden"] as Int64?, hidden == 2 || hidden == 3 {
                throw ImportProblem("not knowledgeC", "\(path): ZOBJECT's \(name) is a generated column: not a knowledgeC.db this reads")
            }
        }
        let missing = columns.filter { !present.contains($0) }
        guard missing.isEmpty else {
            throw ImportProblem("not knowledgeC", "\(path): ZOBJECT has no \(missing.joined(separator: ", ")): not a knowledgeC.db this reads")
        }
    }

    /// The starts of the app-focus records in the order the records are read: where each focus's
    /// next one begins (``KnowledgeRows``). A start that is not a number is NaN.
    static func focusStarts(_ db: Database, limit: Int, path: String) throws -> [Double] {
        let sql = "SELECT ZSTARTDATE FROM ZOBJECT WHERE ZSTREAMNAME = ? ORDER BY ZSTARTDATE, Z_PK LIMIT ?"
        let cursor = try DatabaseValue.fetchCursor(db, sql: sql, arguments: [KnowledgeRecord.Stream.inFocus.rawValue, limit + 1])
        var starts: [Double] = []
        while let value = try cursor.next() {
            guard starts.count < limit else { throw ImportProblem("too large", "\(path) has more than \(limit) records of the streams read") }
            starts.append(number(value) ?? .nan)
        }
        return starts
    }

    /// One row as a record. A value of the wrong kind for its column (a NULL or text date or
    /// offset, an offset in fractions of a second, a NULL key) makes the record ``KnowledgeRecord/invalid``,
    /// with its column named: nothing is taken as a default.
    static func record(_ row: Row) -> KnowledgeRecord {
        let values: [DatabaseValue] = (0..<8).map { row[$0] }
        var problems: [String] = []
        func require(_ index: Int, _ what: String = "a number") -> Double? {
            let v = values[index]
            if let n = number(v) { return n }
            problems.append("\(columns[index]) is \(kind(of: v)), not \(what)")
            return nil
        }
        let key: Int64? = if case .int64(let k) = values[0].storage { k } else { nil }
        if key == nil { problems.append("Z_PK is \(kind(of: values[0])), not an integer key") }
        let name: String = if case .string(let s) = values[1].storage { s } else { "" }
        let stream = KnowledgeRecord.Stream(rawValue: name) ?? .inFocus
        let start = require(2) ?? .nan
        let end = stream == .inFocus ? require(3) ?? .nan : (number(values[3]) ?? .nan)
        var offset = 0
        if let seconds = require(4, "whole seconds") {
            if seconds.rounded() == seconds && abs(seconds) <= 1e9 { offset = Int(seconds) } else {
                problems.append("ZSECONDSFROMGMT \(seconds) is not whole seconds")
            }
        }
        var string: String?
        var value: Double?
        switch stream {
        case .inFocus:
            if case .string(let s) = values[5].storage { string = s } else { problems.append("ZVALUESTRING is \(kind(of: values[5])), not text") }
        case .isLocked, .isPluggedIn:
            if case .int64(let n) = values[6].storage { value = Double(n) } else if !values[6].isNull {
                problems.append("ZVALUEINTEGER is \(kind(of: values[6])), not an integer")
            }
        case .batteryPercentage:
            value = number(values[7])
            if value == nil && !values[7].isNull { problems.append("ZVALUEDOUBLE is \(kind(of: values[7])), not a number") }
        }
        return KnowledgeRecord(key: key, stream: stream, start: start, end: end, secondsFromGMT: offset, string: string, number: value,
                               invalid: problems.first)
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
    static func unreadable(_ path: String, _ error: any Error) -> any Error {
        guard let e = error as? DatabaseError else { return error }
        switch e.resultCode {
        case .SQLITE_NOTADB:
            return ImportProblem("not SQLite", "\(path) is not an SQLite database")
        case .SQLITE_TOOBIG:
            return ImportProblem("too large", "\(path): a value is larger than \(maxValueBytes) bytes: not a knowledgeC.db this reads")
        default:
            return ImportProblem("unreadable", "\(path) cannot be read as an SQLite database: \(e.message ?? "\(e.resultCode)")")
        }
    }
}
