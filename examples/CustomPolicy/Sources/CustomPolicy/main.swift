import FetchCore
import FetchResults
import Foundation

// Replays a canonical usage log under ScreenOnPolicy and, for comparison, two built-ins, in
// one pass, and prints the report table. Each user's rows must be in time order.
let path = CommandLine.arguments.dropFirst().first ?? "data/sample.csv"
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("cannot read '\(path)'\n".utf8))
    exit(1)
}
var parser = CSVLineParser(decoder: RowDecoder())
let policies: [any FetchPolicy] = [ScreenOnPolicy(), FixedPolicy(period: 60 * Millis.minute), PolicySpec.parse("adaptive")!]
let replays = policies.map {
    makeReplay(policy: $0, scenario: .default, seed: 1, users: parser.decoder.users, apps: parser.decoder.apps)
}
do {
    for (number, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
        try Array(line).withUnsafeBufferPointer { bytes throws(RowProblem) in
            if number == 0 { return try CSVLineParser.checkHeader(bytes) }
            if let event = try parser.parse(bytes) { for replay in replays { replay.consume(event) } }
        }
    }
} catch {
    FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
    exit(1)
}
print(ResultText.table(replays.map { $0.finish() }), terminator: "")
