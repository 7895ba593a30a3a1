import FetchAPI
import FetchCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The parsers of outside input, one libFuzzer target each (chosen by `FETCH_FUZZ_TARGET`).
/// Each must return or throw its own error for any bytes: a trap, an overflow or a hang is a
/// finding.
enum FuzzTarget: String, CaseIterable {
    case csv, jsonl, timestamp, duration, scenario, request, usagestats, aware, shard

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
            Self.importLines(bytes, header: false) { try UsageStatsReader(user: "fuzz", offset: .fixed(minutes: 60)) } read: { r, line, log in
                try r.read(line, into: &log)
            }
        case .aware:
            // The first line is the table's header; the zone lookup knows one zone, as a fixed offset.
            Self.importLines(bytes, header: true) {
                try AwareReader(user: nil, offset: .fixed(minutes: 60)) { name in name == "Europe/Berlin" ? .fixed(minutes: 60) : nil }
            } read: { r, line, log in try r.read(line, into: &log) } begin: { r, line in try r.begin(header: line) }
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
            precondition(InputBounds.timestamps.contains(row.millis) && abs(row.offsetMinutes) <= 18 * 60)
            precondition(InputBounds.nameProblem(row.user) == nil)
        }
        _ = log.canonical(rules: ForegroundRules(launchers: ForegroundRules.knownLaunchers, overlays: ForegroundRules.knownOverlays)) { _ in }
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
        precondition(abs(Int(e.offsetMinutes)) <= 18 * 60)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.selected.run(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
