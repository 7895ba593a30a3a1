import FetchCore
import FetchStorage
import Foundation
import GRDB

/// Reads from an iOS `knowledgeC.db` the records that `import --from knowledgec` turns into a
/// usage log (``KnowledgeRecord``): opened read-only, never written, in start order.
public enum KnowledgeCSource {
    /// The columns of `ZOBJECT` read, as iOS 10 to 15 write them.
    static let columns = ["Z_PK", "ZSTREAMNAME", "ZSTARTDATE", "ZENDDATE", "ZSECONDSFROMGMT", "ZVALUESTRING", "ZVALUEINTEGER", "ZVALUEDOUBLE"]

    /// The records of the streams this reads; a database that is not a knowledgeC one is
    /// refused with what it lacks. At most `limit` records (a bound, not a sample).
    public static func records(path: String, limit: Int = 20_000_000) throws -> [KnowledgeRecord] {
        // Checked as every log file is (opened without blocking, a regular file): SQLite would
        // wait on a FIFO for a writer that may never come.
        do { _ = try LineReader(path: path, bufferSize: 64) } catch { throw ImportProblem("unreadable", error.description) }
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do { queue = try DatabaseQueue(path: path, configuration: configuration) } catch {
            throw ImportProblem("not SQLite", "\(path) is not an SQLite database: \(error)")
        }
        return try queue.read { db in
            guard try db.tableExists("ZOBJECT") else {
                throw ImportProblem("not knowledgeC", "\(path) has no ZOBJECT table: not a knowledgeC.db "
                                    + "(iOS keeps it in /private/var/mobile/Library/CoreDuet/Knowledge/)")
            }
            let present = Set(try db.columns(in: "ZOBJECT").map { $0.name.uppercased() })
            let missing = columns.filter { !present.contains($0) }
            guard missing.isEmpty else {
                throw ImportProblem("not knowledgeC", "\(path): ZOBJECT has no \(missing.joined(separator: ", ")): not a knowledgeC.db this reads")
            }
            let streams = KnowledgeRecord.Stream.allCases.map(\.rawValue)
            let sql = """
                SELECT Z_PK, ZSTREAMNAME, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT, ZVALUESTRING, ZVALUEINTEGER, ZVALUEDOUBLE
                FROM ZOBJECT WHERE ZSTREAMNAME IN (\(streams.map { _ in "?" }.joined(separator: ", ")))
                ORDER BY ZSTARTDATE, Z_PK LIMIT ?
                """
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(streams) + [limit + 1])
            var out: [KnowledgeRecord] = []
            while let row = try rows.next() {
                guard out.count < limit else { throw ImportProblem("too large", "\(path) has more than \(limit) records of the streams read") }
                out.append(try record(row))
            }
            return out
        }
    }

    /// One row as a record; a missing or unreadable date is a problem of the record, found
    /// when it is mapped.
    static func record(_ row: Row) throws -> KnowledgeRecord {
        let name: String = value(row, "ZSTREAMNAME") ?? ""
        guard let stream = KnowledgeRecord.Stream(rawValue: name) else { throw ImportProblem("bad stream", "unknown stream '\(name)'") }
        let number: Double? = stream == .batteryPercentage ? value(row, "ZVALUEDOUBLE") : (value(row, "ZVALUEINTEGER") as Int64?).map(Double.init)
        let offset: Int64 = value(row, "ZSECONDSFROMGMT") ?? 0
        return KnowledgeRecord(key: value(row, "Z_PK") ?? 0, stream: stream, start: value(row, "ZSTARTDATE") ?? .nan,
                               end: value(row, "ZENDDATE") ?? .nan, secondsFromGMT: Int(clamping: offset),
                               string: value(row, "ZVALUESTRING"), number: number)
    }

    /// A column's value as `T`, nil when it is NULL or not a `T` (a database from elsewhere may
    /// hold anything in any column: nothing here may trap on it).
    static func value<T: DatabaseValueConvertible>(_ row: Row, _ column: String) -> T? {
        let raw: DatabaseValue = row[column] ?? .null
        return T.fromDatabaseValue(raw)
    }
}
