import FetchCore
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
