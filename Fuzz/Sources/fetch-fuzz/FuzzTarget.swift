import FetchCore
#if canImport(Glibc)
import Glibc
#endif

/// The parsers of outside input, one libFuzzer target each (chosen by `FETCH_FUZZ_TARGET`).
/// Each must return or throw its own error for any bytes: a trap, an overflow or a hang is a
/// finding.
enum FuzzTarget: String, CaseIterable {
    case csv, jsonl, timestamp, duration, scenario

    static let selected: FuzzTarget = {
        guard let name = getenv("FETCH_FUZZ_TARGET").map({ String(cString: $0) }), let t = FuzzTarget(rawValue: name) else {
            fputs("set FETCH_FUZZ_TARGET to one of \(allCases.map(\.rawValue).joined(separator: ", "))\n", stderr)
            exit(2)
        }
        return t
    }()

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .csv:
            var parser = CSVLineParser(decoder: RowDecoder())
            for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
                line.withUnsafeBufferPointer { b in
                    if let e = try? parser.parse(b) { Self.checkEvent(e) }
                }
            }
        case .jsonl:
            let parser = JSONLineParser(decoder: RowDecoder())
            for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
                line.withUnsafeBufferPointer { b in
                    if let e = try? parser.parse(b) { Self.checkEvent(e) }
                }
            }
        case .timestamp:
            if let p = try? TimestampParser.parse(bytes) { precondition(InputBounds.timestamps.contains(p.millis)) }
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
        }
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
