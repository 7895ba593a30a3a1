import FetchCore
import Foundation
import GRDB
import GRDBSQLite

/// Reads from an iOS `knowledgeC.db` the records that `import --from knowledgec` turns into a
/// usage log (``KnowledgeRecord``), in start order, one at a time. The database is evidence,
/// read from a private copy with what a hostile file can cost bounded (``PhoneDatabase``).
public enum KnowledgeCSource {
    /// The columns of `ZOBJECT` read, as iOS 10 to 15 write them.
    static let columns = ["Z_PK", "ZSTREAMNAME", "ZSTARTDATE", "ZENDDATE", "ZSECONDSFROMGMT", "ZVALUESTRING", "ZVALUEINTEGER", "ZVALUEDOUBLE"]
    /// The longest value SQLite may make while reading (``PhoneDatabase/maxValueBytes``).
    public static var maxValueBytes: Int32 { PhoneDatabase.maxValueBytes }

    /// Adds the rows of every record of the streams read to `log` (``KnowledgeRows``); a record
    /// that cannot be read goes to `problem`, which stops the import or counts it. A database that
    /// is not a knowledgeC one is refused with what it lacks. At most `limit` records (a bound,
    /// not a sample). `directory` holds the private copy while it is read.
    public static func read(path: String, directory: String, user: String, limit: Int = 20_000_000, into log: inout ImportedLog,
                            problem: (ImportProblem, KnowledgeRecord) throws -> Void) throws {
        let database = try PhoneDatabase(path: path, directory: directory, name: "knowledgeC.db", what: "a knowledgeC.db",
                                         refusal: "not knowledgeC")
        let queue = database.queue
        do {
            try queue.read { db in
                try database.checkTable(db, "ZOBJECT", columns: columns,
                                        kept: "iOS keeps it in /private/var/mobile/Library/CoreDuet/Knowledge/")
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
            throw PhoneDatabase.unreadable(path, e, what: "a knowledgeC.db")
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

    static func number(_ value: DatabaseValue) -> Double? { PhoneDatabase.number(value) }
    static func kind(of value: DatabaseValue) -> String { PhoneDatabase.kind(of: value) }
}
