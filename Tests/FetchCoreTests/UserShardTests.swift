import FetchCore
import FetchResults
import FetchTesting
import Testing

struct UserShardTests {
    @Test(arguments: ["0/1", "3/4", "1023/1024"])
    func aShardIsReadFromIOverN(text: String) throws {
        let shard = try #require(UserShard(text))
        #expect(shard.description == text)
    }

    @Test(arguments: ["", "1", "1/1", "4/4", "-1/4", "0/0", "0/1025", "+1/4", "1/+4", "0/4/1", " 0/4", "0x1/4", "١/٤", "00001/4"])
    func anythingElseIsRefused(text: String) {
        #expect(UserShard(text) == nil)
    }

    @Test func everyUserIsInExactlyOneShardWhateverTheCount() {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<200 {
            let n = Int(rng.next() % 64) + 1
            let user = "u\(rng.next())"
            let shards = (0..<n).map { UserShard("\($0)/\(n)")! }
            #expect(shards.filter { $0.contains(user: user) }.count == 1)
        }
    }

    @Test(arguments: [1, 2, 5])
    func shardsReplayedAndMergedAreTheWholeReplay(count: Int) throws {
        for seed in UInt64(1)...3 {
            let log = RandomLog(seed: seed, users: 11, days: 3)
            let scenario = RandomLog.scenario(seed: seed, apps: 6)
            let whole = log.replay(AdaptivePolicy(), scenario: scenario, seed: seed)
            let parts = (0..<count).map { i in
                var source = ShardedSource(base: ArraySource(events: log.events, users: log.users, apps: log.apps), shard: UserShard("\(i)/\(count)")!)
                let replay = makeReplay(policy: AdaptivePolicy(), scenario: scenario, seed: seed, users: log.users, apps: log.apps)
                try! source.run([replay])
                let part = replay.finish()
                #expect(part.perUser.allSatisfy { UserShard("\(i)/\(count)")!.contains(user: $0.user) })
                return part
            }
            let merged = ReplayResult.merged(parts)
            #expect(merged.total == whole.total && merged.events == whole.events)
            #expect(merged.perUser == whole.perUser && merged.perDay == whole.perDay)
        }
    }
}
