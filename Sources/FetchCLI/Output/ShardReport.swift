import FetchCore
import Foundation

/// What a `replay` or `bench` run with `--shard i/n` writes: its results without loss (raw
/// tallies, histograms included), and what the run was, so that `fetchsched merge` can check
/// the shards belong together and print the unsharded run's report.
struct ShardReport: Codable, Equatable {
    static let formatName = "fetchsched-shard"
    static let currentVersion = 1

    /// The results of one policy over the shard's users.
    struct Part: Codable, Equatable {
        var policy: String
        var events: Int
        var total: Tally
        var perUser: [ReplayResult.UserRow]
        var perDay: [ReplayResult.DayRow]
    }

    /// What must be the same in every shard of one run.
    struct Run: Codable, Equatable {
        /// `replay` or `bench`.
        var command: String
        /// The policies as given (`bench` shows the frontier's misses for these).
        var policies: String
        var frontier: Bool
        /// A string: JSON numbers in a shard report are counts only (see `read`).
        var seed: String
        /// The scenario file's text, parsed again by `merge`; nil for the default scenario.
        var scenario: String?
        var inputs: [String]
        /// Rows skipped with `--skip-invalid`: every shard reads and skips the same rows.
        var skipped: [String: Int]
    }

    var format = Self.formatName
    var version = Self.currentVersion
    var shard: String
    var run: Run
    var results: [Part]

    init(shard: UserShard, run: Run, results: [ReplayResult]) {
        self.shard = shard.description
        self.run = run
        self.results = results.map { Part(policy: $0.policy, events: $0.events, total: $0.total, perUser: $0.perUser, perDay: $0.perDay) }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension ShardReport {
    /// The largest shard report `merge` reads.
    static let maxFileBytes = 1 << 30
    /// The largest count a shard report may hold: with at most ``UserShard/maxCount`` shards,
    /// sums of counts stay far inside `Int64`.
    static let maxCount = 1 << 40

    /// Reads and checks one shard report: the format and version, every number a whole count
    /// from 0 to ``maxCount``, valid user names and dates, a valid scenario.
    static func read(path: String) throws -> ShardReport {
        func fail(_ problem: String) -> CLIError { CLIError("shard report '\(InputBounds.printable(path))': \(problem)") }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? Int else { throw fail("cannot read it") }
        guard size <= maxFileBytes else { throw fail("is \(size) bytes (at most \(maxFileBytes))") }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read it") }
        let tree: JSONValue
        do { tree = try JSONDecoder().decode(JSONValue.self, from: data) } catch { throw fail("not JSON") }
        if case .object(let top) = tree, top["format"] != .string(formatName) { throw fail("not a shard report (its format is not \(formatName))") }
        if let bad = firstBadNumber(tree, path: "") { throw fail("\(bad) is not a whole count from 0 to \(maxCount)") }
        let report: ShardReport
        do { report = try JSONDecoder().decode(ShardReport.self, from: data) } catch { throw fail("not a valid shard report (\(describe(error)))") }
        guard report.version == currentVersion else { throw fail("version \(report.version); this fetchsched reads version \(currentVersion)") }
        guard UserShard(report.shard) != nil else { throw fail("shard '\(InputBounds.printable(report.shard))' is not i/n") }
        guard UInt64(report.run.seed) != nil else { throw fail("seed '\(InputBounds.printable(report.run.seed))' is not a seed") }
        for part in report.results {
            for row in part.perUser {
                if let problem = InputBounds.nameProblem(row.user) { throw fail("user '\(InputBounds.printable(row.user))' \(problem)") }
            }
            for row in part.perDay where !isDate(row.date) { throw fail("day '\(InputBounds.printable(row.date))' is not YYYY-MM-DD") }
        }
        return report
    }

    /// The path of the first number in `value` that is not a whole number in 0...maxCount.
    private static func firstBadNumber(_ value: JSONValue, path: String) -> String? {
        switch value {
        case .number(let n):
            return n >= 0 && n <= Double(maxCount) && n.rounded() == n ? nil : (path.isEmpty ? "a number" : path)
        case .array(let items):
            for (i, v) in items.enumerated() { if let bad = firstBadNumber(v, path: "\(path)[\(i)]") { return bad } }
            return nil
        case .object(let fields):
            for k in fields.keys.sorted() { if let bad = firstBadNumber(fields[k]!, path: path.isEmpty ? k : "\(path).\(k)") { return bad } }
            return nil
        default:
            return nil
        }
    }

    private static func isDate(_ text: String) -> Bool {
        let b = Array(text.utf8)
        return b.count == 10 && b[4] == UInt8(ascii: "-") && b[7] == UInt8(ascii: "-")
            && b.enumerated().allSatisfy { i, c in i == 4 || i == 7 || (c >= 0x30 && c <= 0x39) }
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

extension ShardReport {
    /// Writes the report to standard output, one line of JSON.
    func write() throws {
        FileHandle.standardOutput.write(try encoded() + Data("\n".utf8))
    }
}
