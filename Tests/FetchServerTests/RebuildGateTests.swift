import FetchAPI
import FetchCore
@testable import FetchServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 34: plans for past moments rebuild the user each time, so each tenant runs a bounded
/// number at once and waits in a bounded line; another tenant is never held up by that line.
struct RebuildGateTests {
    /// Random arrivals and departures of several tenants, against a plain model of the rule.
    @Test(arguments: [(1, 0), (1, 4), (2, 3), (3, 1)])
    func theGateKeepsEachTenantsRunningAndWaitingWithinItsBoundsInOrder(maxRunning: Int, maxWaiting: Int) {
        var rng = SplitMix64(seed: UInt64(maxRunning * 10 + maxWaiting))
        var gate = RebuildGate(maxRunning: maxRunning, maxWaiting: maxWaiting)
        let tenants = ["a", "b", "c"]
        var running: [String: Int] = [:], line: [String: [Int]] = [:]
        for _ in 0..<5_000 {
            let t = tenants[rng.int(in: 0...2)]
            if rng.chance(0.55) {
                switch gate.arrive(tenant: t) {
                case .run:
                    #expect(running[t, default: 0] < maxRunning && line[t, default: []].isEmpty)
                    running[t, default: 0] += 1
                case .wait(let ticket):
                    #expect(running[t, default: 0] == maxRunning && line[t, default: []].count < maxWaiting)
                    line[t, default: []].append(ticket)
                case .refuse:
                    #expect(running[t, default: 0] == maxRunning && line[t, default: []].count == maxWaiting)
                }
            } else if running[t, default: 0] > 0 {
                let next = gate.leave(tenant: t)
                if line[t, default: []].isEmpty {
                    #expect(next == nil)
                    running[t, default: 0] -= 1
                } else {
                    #expect(next == line[t]!.removeFirst(), "the longest waiting goes first")
                }
            }
            let load = gate.load(of: t)
            #expect(load.running == running[t, default: 0] && load.waiting == line[t, default: []].count)
        }
    }

    @Test func aParkedRequestRunsWhenTheOneBeforeItEndsAndAFullLineIsRefused() async throws {
        let limiter = RebuildLimiter(maxRunning: 1, maxWaiting: 1)
        let (firstStarted, startFirst) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseFirst) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await limiter.run(tenant: "a") {
                startFirst.yield()
                for await _ in release { break }
                return 1
            }
        }
        for await _ in firstStarted { break }
        let second = Task { try await limiter.run(tenant: "a") { 2 } }
        // Another tenant is not in a's line.
        #expect(try await limiter.run(tenant: "b") { 3 } == 3)
        // a's line holds one: once the second request is in it, a third is refused.
        for _ in 0..<100_000 where limiter.load(of: "a").waiting == 0 { await Task.yield() }
        #expect(limiter.load(of: "a") == (1, 1))
        await #expect(throws: RequestError.self) { try await limiter.run(tenant: "a") { 4 } }
        releaseFirst.yield()
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
    }

    @Test func concurrentPastPlansOfOneTenantAreServedOrRefusedWithA429AndNeverFail() async throws {
        let h = try ServerHarness(tokens: ServerHarness.tokens)
        let (_, events) = ServerHarness.log(users: 1, days: 6)
        let acme = ["token-acme-0123456789", "token-globex-012345678"]
        try await h.app.test(.router) { client in
            #expect(try await ServerHarness.ingest(client, events, token: acme[0]) == [.ok])
            #expect(try await ServerHarness.ingest(client, events, token: acme[1]) == [.ok])
            let uri = "/v1/users/user-0001/apps/com.example.news/plan?at=2025-01-08T12:00:00Z"
            let statuses = try await withThrowingTaskGroup(of: UInt16.self) { group in
                for i in 0..<17 {
                    group.addTask {
                        try await client.execute(uri: uri, method: .get, headers: ServerHarness.headers(acme[i == 16 ? 1 : 0])) {
                            UInt16($0.status.code)
                        }
                    }
                }
                return try await group.reduce(into: [UInt16]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 429 }, "\(statuses)")
            #expect(statuses.contains(200))
        }
    }
}
