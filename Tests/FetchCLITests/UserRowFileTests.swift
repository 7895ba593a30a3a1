@testable import FetchCLI
@testable import FetchCore
@testable import FetchResults
import FetchTesting
import Foundation
import Testing

/// `--by-user` keeps each retired user's row in a temporary file (``UserRowFile``) until the
/// report reads it back: the report is the one rows in memory give, and no row stays in memory.
struct UserRowFileTests {
    @Test(arguments: [1, 2, 5])
    func shardsWithTheirRowsInFilesMergeToTheWholeReplay(count: Int) throws {
        let dir = Fetchsched.temp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for seed in UInt64(1)...3 {
            let log = RandomLog(seed: seed, users: 11, days: 3)
            let scenario = RandomLog.scenario(seed: seed, apps: 6)
            for policy in [AdaptivePolicy(), FixedPolicy(period: 15 * Millis.minute)] as [any FetchPolicy] {
                let whole = log.replay(policy, scenario: scenario, seed: seed)
                let parts = try (0..<count).map { i in
                    let shard = UserShard("\(i)/\(count)")!
                    let events = log.events.filter { shard.contains(user: log.users[$0.user]) }
                    let file = try UserRowFile(directory: dir)
                    let replay = makeReplay(policy: policy, scenario: scenario, seed: seed, users: log.users, apps: log.apps,
                                            archive: file)
                    // The first users retired one at a time, the rest when the replay ends: both reach the file.
                    UserGrouping.replayEach(events.filter { $0.user < 5 }, through: [replay])
                    for e in events where e.user >= 5 { replay.consume(e) }
                    let part = replay.finish()
                    try file.check()
                    #expect(part.perUser.held == nil && part.perUser.count == Set(events.map(\.user)).count)
                    return part
                }
                let merged = ReplayResult.merged(parts)
                #expect(merged.total == whole.total && merged.events == whole.events && merged.perDay == whole.perDay)
                #expect(merged.perUser == whole.perUser, "seed \(seed), \(policy.name)")
                #expect(merged.perUser.days == whole.perUser.reduce(0) { $0 + $1.days })
                #expect(merged.perUser.indices.allSatisfy { merged.perUser.user(at: $0) == whole.perUser[$0].user })
                // What a user's frontier reads, kept beside each archived row: the row's own figures.
                #expect(merged.perUser.indices.allSatisfy { merged.perUser.spent(at: $0) == UserRows.Spent(whole.perUser[$0]) })
                #expect(parts.allSatisfy { p in p.perUser.indices.allSatisfy { p.perUser.spent(at: $0) == UserRows.Spent(p.perUser[$0]) } })
                // A shard report copies the rows' bytes from the files: the bytes of the rows in memory.
                let run = ShardReport.Run(command: "bench", policies: policy.name, frontier: false, seed: "\(seed)", scenario: nil,
                                          inputs: [], inputDigest: "", skipped: [:])
                let shard = UserShard("0/2")!
                #expect(try ShardReport(shard: shard, run: run, results: [merged]).encoded()
                        == ShardReport(shard: shard, run: run, results: [whole]).encoded())
            }
        }
    }

    @Test func aRowChangedInAnArchivesRowsIsHeldInMemoryWithTheOthers() throws {
        let dir = Fetchsched.temp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try UserRowFile(directory: dir)
        for name in ["c", "a", "b"] { file.append(ReplayResult.UserRow(user: name, days: name.count, tally: Tally())) }
        var rows = UserRows(file.sealed())
        #expect(rows.map(\.user) == ["a", "b", "c"] && rows.held == nil)
        rows[1].days = 7
        #expect(rows.map(\.days) == [1, 7, 1] && rows.held != nil)
    }
}
