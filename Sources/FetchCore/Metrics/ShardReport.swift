#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a `replay` or `bench` run with `--shard i/n` writes: its results without loss (raw
/// tallies, histograms included), and what the run was, so that `fetchsched merge` can check
/// the shards belong together and print the unsharded run's report.
///
/// The format and every check of a report read back live here, on bytes (``decode(_:)``), so
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
        /// A string: JSON numbers in a shard report are counts only (see ``decode(_:)``).
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
                    inputDigest: String, skipped: [String: Int]) {
            (self.command, self.policies, self.frontier, self.seed) = (command, policies, frontier, seed)
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

    /// Reads and checks one shard report's bytes: the format and version, every number a whole
    /// count, valid user names, calendar dates, totals that are the sums of their rows. Returns
    /// it with the sum of its counts, for a merge to check.
    public static func decode(_ bytes: [UInt8]) throws(ShardProblem) -> (report: ShardReport, countSum: Double) {
        guard bytes.count <= maxFileBytes else { throw ShardProblem("is \(bytes.count) bytes (at most \(maxFileBytes))") }
        let data = Data(bytes)
        struct Format: Decodable { var format: String }
        guard (try? JSONDecoder().decode(Format.self, from: data))?.format == formatName else {
            throw ShardProblem("not a shard report (its format is not \(formatName))")
        }
        let countSum: Double
        switch countsProblem(bytes) {
        case .success(let sum): countSum = sum
        case .failure(let bad): throw bad
        }
        guard countSum <= maxCountSum else { throw ShardProblem("its counts add up past 2^61") }
        let report: ShardReport
        do { report = try JSONDecoder().decode(ShardReport.self, from: data) } catch {
            throw ShardProblem("not a valid shard report (\(describe(error)))")
        }
        guard report.version == currentVersion else {
            throw ShardProblem("version \(report.version); this fetchsched reads version \(currentVersion)")
        }
        guard UserShard(report.shard) != nil else { throw ShardProblem("shard '\(InputBounds.printable(report.shard))' is not i/n") }
        guard UInt64(report.run.seed) != nil else { throw ShardProblem("seed '\(InputBounds.printable(report.run.seed))' is not a seed") }
        for part in report.results {
            for row in part.perUser {
                if let problem = InputBounds.nameProblem(row.user) { throw ShardProblem("user '\(InputBounds.printable(row.user))' \(problem)") }
            }
            for row in part.perDay where !isDate(row.date) {
                throw ShardProblem("day '\(InputBounds.printable(row.date))' is not a date YYYY-MM-DD")
            }
            if let problem = part.totalsProblem() { throw ShardProblem("policy '\(InputBounds.printable(part.policy))': \(problem)") }
        }
        return (report, countSum)
    }

    /// The sum of every number in a shard report's JSON text, or the first that is not a whole
    /// count (digits only, at most 18 of them) by its byte offset.
    ///
    /// A scan of the bytes rather than of a decoded tree: every number in the report is a count,
    /// so one rule covers them all, and Foundation's JSON trees cost seconds per megabyte.
    static func countsProblem(_ bytes: [UInt8]) -> Result<Double, ShardProblem> {
        var sum = 0.0, i = 0, inString = false
        while i < bytes.count {
            let c = bytes[i]
            if inString {
                if c == UInt8(ascii: "\\") { i += 1 } else if c == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if c == UInt8(ascii: "\"") { inString = true; i += 1; continue }
            // true, false, null
            if c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") {
                while i < bytes.count, bytes[i] >= UInt8(ascii: "a") && bytes[i] <= UInt8(ascii: "z") { i += 1 }
                continue
            }
            let start = i
            var digitsOnly = true
            while i < bytes.count, Self.numberBytes.contains(bytes[i]) {
                if !(bytes[i] >= 0x30 && bytes[i] <= 0x39) { digitsOnly = false }
                i += 1
            }
            if i == start { i += 1; continue }
            let token = bytes[start..<i]
            guard digitsOnly, token.count <= 18, let n = Int64(String(decoding: token, as: UTF8.self)) else {
                let shown = InputBounds.printable(String(decoding: token.prefix(30), as: UTF8.self))
                return .failure(ShardProblem("the number at byte \(start) ('\(shown)') is not a whole count"))
            }
            sum += Double(n)
        }
        return .success(sum)
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)

    /// A calendar date from 1970 to 2099, as the engine writes days.
    public static func isDate(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 10 && b[4] == UInt8(ascii: "-") && b[7] == UInt8(ascii: "-")
            && b.enumerated().allSatisfy({ i, c in i == 4 || i == 7 || (c >= 0x30 && c <= 0x39) }) else { return false }
        let number = { (r: Range<Int>) in r.reduce(0) { $0 * 10 + Int(b[$1] - 0x30) } }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        return (1970...2099).contains(year) && (1...12).contains(month) && day >= 1 && day <= LocalTime.daysInMonth(year: year, month: month)
    }

    private static func describe(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "\(error)" }
        switch e {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
            let at = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return (at.isEmpty ? "" : "at \(at): ") + c.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension ShardReport.Part {
    /// What is wrong with the part's totals, or nil: its total must be the sum of its users' and
    /// the sum of its days', and the days its users were active must be the users its days had.
    /// The caller has bounded the counts' sum, so none of these sums can overflow.
    public func totalsProblem() -> String? {
        var byUser = Tally(), byDay = Tally()
        for row in perUser { byUser.merge(row.tally) }
        for row in perDay { byDay.merge(row.tally) }
        if byUser != total { return "its total is not the sum of its users' (perUser)" }
        if byDay != total { return "its total is not the sum of its days' (perDay)" }
        if perUser.reduce(0, { $0 + $1.days }) != perDay.reduce(0, { $0 + $1.users }) {
            return "its users' active days do not add up to its days' active users"
        }
        return nil
    }
}
