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
    case csv, jsonl, timestamp, duration, scenario, request

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
        }
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
