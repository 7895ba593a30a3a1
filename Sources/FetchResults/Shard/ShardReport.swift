#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

/// What a `replay` or `bench` run with `--shard i/n` writes: its results without loss (raw
/// tallies, histograms included), and what the run was, so that `fetchsched merge` can check
/// the shards belong together and print the unsharded run's report.
///
/// The format and every check of a report read back live here, on bytes (``decode(_:keepingRowsIn:)``), so
/// that the fuzzer reaches them; the command line reads the file and merges.
public struct ShardReport: Codable, Equatable, Sendable {
    public static let formatName = "fetchsched-shard"
    public static let currentVersion = 2

    /// The results of one policy over the shard's users.
    public struct Part: Codable, Equatable, Sendable {
        public var policy: String
        public var events: Int
        public var total: Tally
        public var perUser: UserRows
        public var perDay: [ReplayResult.DayRow]
    }

    /// What must be the same in every shard of one run.
    public struct Run: Codable, Equatable, Sendable {
        /// `replay` or `bench`.
        public var command: String
        /// The policies as given (`bench` shows the frontier's misses for these).
        public var policies: String
        public var frontier: Bool
        /// The families a frontier swept, as given (`bench --sweep`); nil for every one.
        public var sweep: String?
        /// A string: JSON numbers in a shard report are counts only (see ``decode(_:keepingRowsIn:)``).
        public var seed: String
        /// The scenario file's text, parsed again by `merge`; nil for the default scenario.
        public var scenario: String?
        public var inputs: [String]
        /// SHA-256 of the events read and the names: shards of different inputs differ here even
        /// when their paths match.
        public var inputDigest: String
        /// Rows skipped with `--skip-invalid`: every shard reads and skips the same rows.
        public var skipped: [String: Int]

        public init(command: String, policies: String, frontier: Bool, seed: String, scenario: String?, inputs: [String],
                    inputDigest: String, skipped: [String: Int], sweep: String? = nil) {
            (self.command, self.policies, self.frontier, self.seed, self.sweep) = (command, policies, frontier, seed, sweep)
            (self.scenario, self.inputs, self.inputDigest, self.skipped) = (scenario, inputs, inputDigest, skipped)
        }
    }

    public var format = Self.formatName
    public var version = Self.currentVersion
    public var shard: String
    public var run: Run
    public var results: [Part]

    public init(shard: UserShard, run: Run, results: [ReplayResult]) {
        self.shard = shard.description
        self.run = run
        self.results = results.map { Part(policy: $0.policy, events: $0.events, total: $0.total, perUser: $0.perUser, perDay: $0.perDay) }
    }

    /// The encoder of a report and of each of its parts: JSON with sorted keys, slashes as they are.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The report as one line of JSON: the bytes of its `Codable` form with sorted keys.
    public func encoded() throws -> Data {
        var out = Data()
        try encode { out.append($0) }
        return out
    }

    /// ``encoded()``, handed to `write` a piece at a time: each user's row is encoded alone,
    /// where the whole report encoded at once would build the tree of every row in memory first,
    /// several times the size of the text. The keys are written in the sorted order
    /// (`format`, `results`, `run`, `shard`, `version`; a part's `events`, `perDay`, `perUser`,
    /// `policy`, `total`).
    public func encode(to write: (Data) throws -> Void) throws {
        let encoder = Self.makeEncoder()
        func text(_ s: String) -> Data { Data(s.utf8) }
        try write(text("{\"format\":") + encoder.encode(format) + text(",\"results\":["))
        for (i, part) in results.enumerated() {
            try write(text(i == 0 ? "{\"events\":" : ",{\"events\":") + encoder.encode(part.events) + text(",\"perDay\":")
                      + encoder.encode(part.perDay) + text(",\"perUser\":["))
            var chunk = Data()
            for j in part.perUser.indices {
                if j > 0 { chunk.append(UInt8(ascii: ",")) }
                chunk.append(try part.perUser.encodedRow(at: j) ?? encoder.encode(part.perUser[j]))
                if chunk.count >= 1 << 16 {
                    try write(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try write(chunk + text("],\"policy\":") + encoder.encode(part.policy) + text(",\"total\":") + encoder.encode(part.total) + text("}"))
        }
        try write(text("],\"run\":") + encoder.encode(run) + text(",\"shard\":") + encoder.encode(shard) + text(",\"version\":")
                  + encoder.encode(version) + text("}"))
    }
}

/// Why a shard report's bytes are not one: the message names the problem, not the file.
public struct ShardProblem: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension ShardReport {
    /// The largest shard report `merge` reads.
    public static let maxFileBytes = 1 << 30
    /// The largest sum of all the counts of the shard reports merged together: no sum of some
    /// of them can overflow `Int64` (they are all whole numbers, none below 0). Each count has
    /// at most 18 digits, so a sum of up to ``UserShard/maxCount`` files stays exact enough.
    public static let maxCountSum = Double(1 << 61)
}
