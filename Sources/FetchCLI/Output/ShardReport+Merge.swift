import FetchAPI
import FetchCore
import FetchResults
import FetchStorage

extension ShardReport {
    /// The run the shard reports `files` (path, report) are parts of, and its results per
    /// policy, as one unsharded run would give them. Every shard from 0 to n-1 must be there
    /// once, from the same run, each user in the shard its name hashes to.
    static func merge(_ files: [(path: String, report: ShardReport, countSum: Double)]) throws -> (run: Run, results: [ReplayResult]) {
        guard let first = files.first else { throw CLIError("give the shard reports to merge") }
        guard files.reduce(0, { $0 + $1.countSum }) <= maxCountSum else {
            throw CLIError("the counts of these shard reports add up past 2^61: merge fewer at a time")
        }
        let count = UserShard(first.report.shard)!.count
        var seen = [String?](repeating: nil, count: count)
        for (path, report, _) in files {
            let name = "'\(InputBounds.printable(path))'"
            let shard = UserShard(report.shard)!
            guard shard.count == count else { throw CLIError("\(name) is shard \(shard) but '\(InputBounds.printable(first.path))' is of \(count) shards") }
            if let other = seen[shard.index] { throw CLIError("\(name) and '\(InputBounds.printable(other))' are both shard \(shard)") }
            seen[shard.index] = path
            if let field = report.run.firstDifference(from: first.report.run) {
                let verb = field.hasSuffix("s") ? "differ" : "differs"
                throw CLIError("\(name) is from another run than '\(InputBounds.printable(first.path))': its \(field) \(verb)")
            }
            guard report.results.map(\.policy) == first.report.results.map(\.policy) else {
                throw CLIError("\(name) has other policies than '\(InputBounds.printable(first.path))'")
            }
            for part in report.results {
                // By name only: the rows are on disk (``read(path:)``).
                if let user = part.perUser.indices.lazy.map(part.perUser.user(at:)).first(where: { !shard.contains(user: $0) }) {
                    throw CLIError("\(name): user '\(InputBounds.printable(user))' is not in shard \(shard)")
                }
            }
        }
        let missing = seen.indices.filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw CLIError("missing shard\(missing.count == 1 ? "" : "s") \(missing.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", "))\(missing.count > 10 ? " …" : "") of \(count)")
        }
        let run = first.report.run
        let scenario: Scenario
        do {
            scenario = try run.scenario.map { try Scenario.parse(json: Array($0.utf8)) } ?? .default
        } catch {
            throw CLIError("'\(InputBounds.printable(first.path))': its scenario: \(error)")
        }
        let seed = UInt64(run.seed)!
        let results = first.report.results.indices.map { p in
            var merged = ReplayResult.merged(files.map { file in
                let part = file.report.results[p]
                return ReplayResult(policy: part.policy, seed: seed, scenario: scenario, events: part.events,
                                    total: part.total, perUser: part.perUser, perDay: part.perDay)
            })
            merged.skipped = run.skipped
            return merged
        }
        for r in results {
            if let i = r.perUser.indices.dropFirst().first(where: { r.perUser.user(at: $0) == r.perUser.user(at: $0 - 1) }) {
                throw CLIError("user '\(InputBounds.printable(r.perUser.user(at: i)))' is in a shard report twice")
            }
        }
        return (run, results)
    }
}

extension ShardReport.Run {
    /// The name of the first field that differs from `other`, or nil when none does.
    func firstDifference(from other: Self) -> String? {
        guard self != other else { return nil }
        let differing = zip(Mirror(reflecting: self).children, Mirror(reflecting: other).children).first {
            String(describing: $0.0.value) != String(describing: $0.1.value)
        }
        return differing?.0.label ?? "run"
    }
}
