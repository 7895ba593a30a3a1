@testable import FetchCore
@testable import FetchResults
import FetchTesting
import Foundation
import Testing

/// A shard report written a row at a time is the bytes of its `Codable` form, and reads back.
struct ShardReportTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aReportWrittenRowByRowIsTheBytesOfItsCodableForm(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed, 0x73_68)
        let log = RandomLog(seed: rng.next(), users: rng.int(in: 1...5), days: rng.int(in: 1...3), eventsPerDay: 60)
        let scenario = RandomLog.scenario(seed: rng.next(), apps: Int(log.appCount))
        var results = try ["none", "fixed:15m", "adaptive", "oracle"].map { try log.replay(#require(PolicySpec.parse($0)), scenario: scenario, seed: 5) }
        // Names and text that JSON escapes, and a policy with no users.
        results[0].perUser[0].user = "a/b \"é\" \\ ü"
        results[1].perUser = []
        let run = ShardReport.Run(command: "bench", policies: "none,fixed:15m/x", frontier: seed == 2, seed: "5", scenario: seed == 3 ? nil : "{\"a\": \"/\"}",
                                  inputs: ["logs/a b.csv"], inputDigest: "ab", skipped: ["bad time": 2])
        let report = ShardReport(shard: UserShard("1/3")!, run: run, results: results)

        var pieces = 0
        var streamed = Data()
        try report.encode { streamed.append($0); pieces += 1 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(streamed == (try encoder.encode(report)))
        #expect(streamed == (try report.encoded()) && pieces > results.count)
        #expect(try JSONDecoder().decode(ShardReport.self, from: streamed) == report)
    }
}

/// A report read a row at a time (``ShardReport/decode(_:keepingRowsIn:)``) is the report read
/// whole, and a report altered anyhow is taken or refused alike, in the same words.
struct ShardReportByRowsTests {
    static func report(seed: UInt64) throws -> [UInt8] {
        var rng = SplitMix64(seed: seed, 0x72_6f)
        let log = RandomLog(seed: rng.next(), users: rng.int(in: 2...5), days: rng.int(in: 1...3), eventsPerDay: 40)
        let scenario = RandomLog.scenario(seed: rng.next(), apps: Int(log.appCount))
        let results = try ["none", "adaptive"].map { try log.replay(#require(PolicySpec.parse($0)), scenario: scenario, seed: 5) }
        let run = ShardReport.Run(command: "bench", policies: "none,adaptive", frontier: false, seed: "5", scenario: nil,
                                  inputs: ["a.csv"], inputDigest: "ab", skipped: [:])
        return [UInt8](try ShardReport(shard: UserShard("0/1")!, run: run, results: results).encoded())
    }

    /// What reading `bytes` comes to: the report and its counts' sum, or the problem's words.
    static func outcome(_ read: () throws -> (report: ShardReport, countSum: Double)) -> String {
        do {
            let (report, sum) = try read()
            return "\(sum) " + String(decoding: try report.encoded(), as: UTF8.self)
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aReportReadARowAtATimeIsTheReportReadWholeAndAnAlteredOneIsRefusedInTheSameWords(seed: UInt64) throws {
        let bytes = try Self.report(seed: seed)
        let whole = Self.outcome { try ShardReport.decodeWhole(bytes) }
        #expect(whole.first?.isNumber == true)
        // A report as written is laid out by the scan, and read a row at a time.
        let layout = try #require(ShardReportLayout(bytes))
        #expect(layout.parts.count == 2 && layout.parts.allSatisfy { !$0.rows.isEmpty })
        #expect(Self.outcome { try ShardReport.decode(bytes) } == whole)
        var rng = SplitMix64(seed: seed, 0x6d_75)
        let alphabet = Array("{}[],:\"\\ 0123456789-.eaz".utf8)
        for _ in 0..<400 {
            var altered = bytes
            for _ in 0..<rng.int(in: 1...3) {
                let at = rng.int(in: 0...(altered.count - 1))
                let c = alphabet[rng.int(in: 0...(alphabet.count - 1))]
                switch rng.int(in: 0...2) {
                case 0: altered[at] = c
                case 1: altered.remove(at: at)
                default: altered.insert(c, at: at)
                }
            }
            let expected = Self.outcome { try ShardReport.decodeWhole(altered) }
            #expect(Self.outcome { try ShardReport.decode(altered) } == expected)
        }
        // Some alterations leave a report (in a name, in spaces): both readers take them alike. Spaces
        // inside the outer braces always do; the random ones above may or may not.
        var spaced = bytes
        spaced.insert(contentsOf: [32, 10], at: spaced.count - 1)
        spaced.insert(contentsOf: [32, 32], at: 1)
        let spacedWhole = Self.outcome { try ShardReport.decodeWhole(spaced) }
        #expect(spacedWhole.first?.isNumber == true && Self.outcome { try ShardReport.decode(spaced) } == spacedWhole)
    }
}
