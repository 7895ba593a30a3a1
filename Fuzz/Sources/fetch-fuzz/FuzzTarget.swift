import FetchAPI
import FetchCore
import FetchImport
import FetchResults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The parsers of outside input, one libFuzzer target each (chosen by `FETCH_FUZZ_TARGET`).
/// Each must return or throw its own error for any bytes: a trap, an overflow or a hang is a
/// finding.
enum FuzzTarget: String, CaseIterable {
    case csv, jsonl, timestamp, duration, scenario, request, usagestats, aware, awaredump, shard, dumpdate, knowledgec, knowledgecdb, wellbeingdb

    static let selected: FuzzTarget = {
        guard let name = getenv("FETCH_FUZZ_TARGET").map({ String(cString: $0) }), let t = FuzzTarget(rawValue: name) else {
            print("set FETCH_FUZZ_TARGET to one of \(allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        return t
    }()

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .csv:
            var parser = CSVLineParser(decoder: RowDecoder())
            for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
                if let e = try? parser.parse(UnsafeBufferPointer(rebasing: line)) { Self.checkEvent(e) }
            }
        case .jsonl:
            var parser = JSONLineParser(decoder: RowDecoder())
            for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
                if let e = try? parser.parse(UnsafeBufferPointer(rebasing: line)) { Self.checkEvent(e) }
            }
        case .timestamp:
            if let p = try? TimestampParser.parse(bytes) { precondition(InputBounds.timestamps.contains(p.millis)) }
            // Read again with its own day remembered: the same instant and offset.
            var lastDay = TimestampParser.DayCache()
            let first = try? TimestampParser.parse(bytes, lastDay: &lastDay)
            let again = try? TimestampParser.parse(bytes, lastDay: &lastDay)
            precondition(first?.millis == again?.millis && first?.offsetMinutes == again?.offsetMinutes)
        case .duration:
            let text = String(decoding: bytes, as: UTF8.self)
            if let ms = DurationText.parse(text) {
                precondition((0...InputBounds.maxDuration).contains(ms))
                _ = DurationText.format(ms)
            }
            _ = FetchInterval(text: text)
            _ = ContentModel(text: text)
            _ = PolicySpec.parse(text)
        case .scenario:
            _ = try? Scenario.parse(json: Array(bytes))
        case .request:
            Self.request(Data(bytes))
        case .usagestats:
            // The input's first byte picks the date order (none, or each of `--date-order`'s), and
            // its high bit a zone whose offset moves every few hours (gaps and repeated hours
            // everywhere) instead of a fixed one.
            let orders: [DumpDate.Order?] = [nil] + DumpDate.Order.allCases.map { $0 }
            let order = orders[Int(bytes.first ?? 0) % orders.count]
            let moving = UTCOffsetRule(name: "fuzz/moving") { millis in LocalTime.floorDiv(millis, 5 * Millis.hour) % 2 == 0 ? 60 : 120 }
            let offset = (bytes.first ?? 0) & 0x80 == 0 ? UTCOffsetRule.fixed(minutes: 60) : moving
            Self.importLines(bytes, header: false) {
                try UsageStatsReader(user: "fuzz", offset: offset, dateOrder: order)
            } read: { r, line, log in
                try r.read(line, into: &log)
            }
        case .dumpdate:
            Self.dumpDate(String(decoding: bytes, as: UTF8.self))
        case .knowledgec:
            Self.knowledgeRecords(bytes)
        case .knowledgecdb:
            Self.knowledgeDatabase(bytes)
        case .wellbeingdb:
            Self.wellbeingDatabase(bytes)
        case .aware:
            // The first line is the table's header; the zone lookup knows one zone, as a fixed offset.
            Self.importLines(bytes, header: true) {
                try AwareReader(user: nil, offset: .fixed(minutes: 60)) { name in name == "Europe/Berlin" ? .fixed(minutes: 60) : nil }
            } read: { r, line, log in try r.read(line, into: &log) } begin: { r, line in try r.begin(header: line) }
        case .awaredump:
            Self.awareDump(bytes)
        case .shard:
            if let (report, sum) = try? ShardReport.decode(Array(bytes)) {
                precondition(sum <= ShardReport.maxCountSum)
                for part in report.results { precondition(part.totalsProblem() == nil) }
            }
        }
    }

    /// An import reader over the input's lines (as `fetchsched import` gives them: UTF-8 only),
    /// then the canonical log of what it kept: every row within the log's bounds.
    static func importLines<R>(_ bytes: UnsafeBufferPointer<UInt8>, header: Bool, make: () throws -> R,
                               read: (inout R, Substring, inout ImportedLog) throws -> Void,
                               begin: ((inout R, Substring) throws -> Void)? = nil) {
        guard var reader = try? make() else { return }
        var log = ImportedLog()
        var first = header
        for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
            guard let text = String(validating: UnsafeBufferPointer(rebasing: line), as: UTF8.self) else { continue }
            if first {
                first = false
                guard (try? begin?(&reader, Substring(text))) != nil else { return }
                continue
            }
            try? read(&reader, Substring(text), &log)
        }
        for row in log.rows {
            precondition(InputBounds.timestamps.contains(row.millis) && InputBounds.offsetMinutes.contains(row.offsetMinutes))
            precondition(InputBounds.nameProblem(row.user) == nil)
        }
        _ = log.canonical(rules: ForegroundRules(launchers: ForegroundRules.knownLaunchers, overlays: ForegroundRules.knownOverlays)) { _ in }
    }

    /// A MySQL dump read a line at a time (``AwareDump``), then its AWARE tables through the
    /// reader as `import` takes them: every kept row within the log's bounds, never a trap.
    static func awareDump(_ bytes: UnsafeBufferPointer<UInt8>) {
        var dump = AwareDump()
        for (i, line) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
            guard let text = String(validating: UnsafeBufferPointer(rebasing: line), as: UTF8.self) else { return }
            guard (try? dump.feed(Substring(text), number: i + 1)) != nil else { return }
        }
        try? dump.finish()
        for (_, rows) in dump.tables { precondition(rows.rows.allSatisfy { $0.fields.count == rows.columns.count }) }
        guard var reader = try? AwareReader(user: nil, offset: .fixed(minutes: 60), zone: { _ in nil }) else { return }
        var log = ImportedLog()
        for table in [AwareReader.Table.timezone, .foreground, .screen, .battery, .network] {
            guard let rows = dump.tables[table], (try? reader.begin(columns: rows.columns)) != nil else { continue }
            for row in rows.rows { try? reader.read(fields: row.fields.map { $0 ?? "" }, into: &log) }
        }
        reader.finish(into: &log)
        for row in log.rows { precondition(InputBounds.timestamps.contains(row.millis) && InputBounds.nameProblem(row.user) == nil) }
        _ = log.canonical(rules: ForegroundRules(launchers: ForegroundRules.knownLaunchers, overlays: ForegroundRules.knownOverlays)) { _ in }
    }

    /// A dump's date in every order: a wall clock between 1970 and 2100, the same whatever
    /// order is given when the date itself says which it is.
    static func dumpDate(_ text: String) {
        var results: [Int64?] = []
        for order in [nil] + DumpDate.Order.allCases.map({ $0 }) {
            let millis = try? DumpDate.wallClock(text, order: order)
            if let millis { precondition((0..<InputBounds.timestamps.upperBound).contains(millis)) }
            results.append(millis)
        }
        // Read with no order, a date is unambiguous: any order that reads it reads the same.
        if let plain = results[0] { precondition(results.allSatisfy { $0 == nil || $0 == plain }) }
    }

    /// knowledgeC records made of the input (a stream, three doubles, an offset, a bundle id,
    /// 32 bytes each), in start order as the SQLite rim gives them, then the rows they become:
    /// every kept row within the log's bounds, every other record a problem, never a trap.
    static func knowledgeRecords(_ bytes: UnsafeBufferPointer<UInt8>) {
        var records: [KnowledgeRecord] = []
        var at = 0
        func double() -> Double {
            var bits: UInt64 = 0
            for i in 0..<8 where at + i < bytes.count { bits |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
            at += 8
            // Small whole numbers and plain dates as often as odd bit patterns.
            return bits & 1 == 0 ? Double(bitPattern: bits) : Double(Int64(truncatingIfNeeded: bits >> 1) % 4_000_000_000)
        }
        while at < bytes.count, records.count < 256 {
            let stream = KnowledgeRecord.Stream.allCases[Int(bytes[at]) % 4], key = Int64(records.count)
            at += 1
            let start = double(), end = double(), number = double()
            // Offsets up to ±36 hours, twice the bound, from the number's low bits.
            let offset = Int(Int16(truncatingIfNeeded: number.bitPattern & 0xFFFF)) * 4
            let name = String(decoding: bytes[min(at, bytes.count)..<min(at + 7, bytes.count)], as: UTF8.self)
            at += 7
            // A record without a key, or one the reader found a value of the wrong kind in.
            let flags = number.bitPattern >> 60
            records.append(KnowledgeRecord(key: flags == 1 ? nil : key, stream: stream, start: start, end: end, secondsFromGMT: offset,
                                           string: name, number: number, invalid: flags == 2 ? "ZSTARTDATE is text, not a number" : nil))
        }
        records.sort { ($0.start.isNaN ? -.infinity : $0.start, $0.key ?? -1) < ($1.start.isNaN ? -.infinity : $1.start, $1.key ?? -1) }
        var log = ImportedLog(), problems = 0
        try? KnowledgeRecord.rows(records, user: "fuzz", into: &log) { _, _ in problems += 1 }
        precondition(problems <= records.count)
        for row in log.rows {
            precondition(InputBounds.timestamps.contains(row.millis) && InputBounds.offsetMinutes.contains(row.offsetMinutes))
        }
        _ = log.canonical(rules: ForegroundRules(launchers: ForegroundRules.knownLaunchers, overlays: ForegroundRules.knownOverlays)) { _ in }
    }

    /// The bytes as a knowledgeC.db, read as `import --from knowledgec` reads one: whatever they
    /// hold, the read ends with rows in range or an error, and leaves nothing beside the file.
    static func knowledgeDatabase(_ bytes: UnsafeBufferPointer<UInt8>) {
        let dir = NSTemporaryDirectory() + "fetch-fuzz-knowledgec-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/knowledgeC.db"
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        var log = ImportedLog(), problems = 0
        try? KnowledgeCSource.read(path: path, directory: dir, user: "fuzz", limit: 10_000, into: &log) { _, _ in problems += 1 }
        for row in log.rows {
            precondition(InputBounds.timestamps.contains(row.millis) && InputBounds.offsetMinutes.contains(row.offsetMinutes))
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        precondition(left == ["knowledgeC.db"], "left beside the database: \(left)")
    }

    /// The bytes as a Digital Wellbeing app_usage database, read as `import --from wellbeing`
    /// reads one: whatever they hold, the read ends with rows in range and their canonical log,
    /// or an error, and leaves nothing beside the file.
    static func wellbeingDatabase(_ bytes: UnsafeBufferPointer<UInt8>) {
        let dir = NSTemporaryDirectory() + "fetch-fuzz-wellbeing-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/app_usage"
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        var log = ImportedLog(), problems = 0
        try? WellbeingSource.read(path: path, directory: dir, user: "fuzz", offset: .fixed(minutes: 60), limit: 10_000,
                                  into: &log) { _, _ in problems += 1 }
        for row in log.rows {
            precondition(InputBounds.timestamps.contains(row.millis) && InputBounds.offsetMinutes.contains(row.offsetMinutes))
        }
        _ = log.canonical(rules: ForegroundRules()) { _ in }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        precondition(left == ["app_usage"], "left beside the database: \(left)")
    }

    /// Every request body the API decodes, and the query fields, as the server reads them.
    static func request(_ data: Data) {
        if let batch = try? RequestDecoding.decode(API.EventBatch.self, from: data),
           let events = try? batch.validated(maxEvents: 5_000) {
            for e in events { checkEvent(e.event) }
        }
        if let report = try? RequestDecoding.decode(API.FetchReport.self, from: data), let valid = try? report.validated() {
            precondition((0...Millis.deadline).contains(valid.fetch.durationMs) && (0...InputBounds.maxBytes).contains(valid.fetch.bytes))
        }
        if let body = try? RequestDecoding.decode(API.IntervalBody.self, from: data) { _ = try? body.validated() }
        let text = String(decoding: data, as: UTF8.self)
        _ = try? RequestFields.name(text, field: "user")
        _ = try? RequestFields.instant(text, field: "at")
        if let ms = try? RequestFields.horizon(text, max: InputBounds.maxHorizon) { precondition(ms <= InputBounds.maxHorizon) }
    }

    /// What the readers promise of every event they return.
    static func checkEvent(_ e: UsageEvent) {
        precondition(InputBounds.timestamps.contains(e.time.millis))
        precondition(InputBounds.offsetMinutes.contains(Int(e.offsetMinutes)))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.selected.run(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
