import FetchCore
import Foundation
import Testing

/// `bench --prior-from-other-users`: the learned policies start each user from a prior fitted on
/// the other users of the logs; nothing else changes.
@Suite struct PopulationPriorTests {
    static func rows(_ out: String) throws -> [String: String] {
        let list = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        var out: [String: String] = [:]
        for row in list {
            let policy = row["policy"] as! String
            let violations = try #require(row["violations"] as? [String: Int])
            #expect(violations.values.allSatisfy { $0 == 0 }, "\(policy)")
            out[policy] = "\(row["energyJoules"]!) \(row["rescuedOpens"]!) \(row["fetches"]!)"
        }
        return out
    }

    @Test func onlyTheLearnedPoliciesChangeAndTheRunIsTheSameEveryTime() async throws {
        let args = ["bench", CommandTests.sample, "--policies", "counts,adaptive:0.058,learned:0.058,learned:0.0073", "--format", "json",
                    "--quiet"]
        let shipped = try await Fetchsched.run(args)
        let others = try await Fetchsched.run(args + ["--prior-from-other-users"])
        #expect(shipped.status == 0 && others.status == 0, "\(shipped.err) \(others.err)")
        let a = try Self.rows(shipped.out), b = try Self.rows(others.out)
        #expect(a["counts"] == b["counts"] && a["adaptive:0.058"] == b["adaptive:0.058"])
        #expect(a["learned:0.058"] != b["learned:0.058"] || a["learned:0.0073"] != b["learned:0.0073"])
        #expect(try await Fetchsched.run(args + ["--prior-from-other-users"]).out == others.out)
    }

    @Test func itNeedsEveryUserFromLogFilesAndTwoUsersAtLeast() async throws {
        let dir = Fetchsched.temp()
        let one = dir + "/one.csv"
        let lines = try String(contentsOfFile: CommandTests.sample, encoding: .utf8).split(separator: "\n")
        try (lines.prefix(1) + lines.dropFirst().filter { $0.contains(",user-0001,") }).joined(separator: "\n")
            .appending("\n").write(toFile: one, atomically: true, encoding: .utf8)
        let alone = try await Fetchsched.run(["bench", one, "--policies", "learned", "--prior-from-other-users"])
        #expect(alone.status != 0 && alone.err.contains("two users or more"), "\(alone.err)")
        let sharded = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "learned", "--prior-from-other-users", "--shard", "0/2"])
        #expect(sharded.status != 0 && sharded.err.contains("not with --db or --shard"), "\(sharded.err)")
        let db = dir + "/events.sqlite"
        #expect(try await Fetchsched.run(["ingest", CommandTests.sample, "--db", db]).status == 0)
        let stored = try await Fetchsched.run(["bench", "--db", db, "--policies", "learned", "--prior-from-other-users"])
        #expect(stored.status != 0 && stored.err.contains("not with --db or --shard"), "\(stored.err)")
    }
}
