@testable import FetchBench
@testable import FetchCore
import Testing

/// Issue 64: the prediction benchmark's cost grows with its moments, not with moments times apps.
struct PredictionBoundTests {
    /// One user who opens `apps` apps in turn, one a minute from 2025-01-06.
    static func opens(apps: Int, count: Int) -> [UsageEvent] {
        let start: Int64 = 1_736_150_400_000
        return (0..<count).map { i in
            UsageEvent(time: Instant(millis: start + Int64(i) * Millis.minute), user: 0, app: Int32(i % apps), kind: .open)
        }
    }

    @Test func aUserWithMoreAppsThanTheBoundHasTheMostRecentlyOpenedScored() throws {
        var bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: false)
        let apps = PredictionBench.maxAppsScored * 3
        bench.run(user: 0, events: Self.opens(apps: apps, count: 2 * apps))
        #expect(bench.boundedMoments > 0)
        // No moment scores more apps than the bound.
        let moments = bench.byKind[0].reduce(0) { $0 + $1.examples }
        #expect(moments <= (2 * apps + 2 * apps / 15 + 2) * PredictionBench.maxAppsScored)
        let names = NameTable()
        _ = names.id("ann")
        #expect(bench.text(markdown: false, users: names).contains("moments scored only the \(PredictionBench.maxAppsScored) most recently opened"))
        #expect(try bench.json(users: names).contains("\"boundedMoments\""))
    }

    @Test func aUserWithinTheBoundIsScoredOnEveryApp() throws {
        var bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: false)
        bench.run(user: 0, events: Self.opens(apps: 40, count: 400))
        #expect(bench.boundedMoments == 0)
        let names = NameTable()
        _ = names.id("ann")
        #expect(try !bench.json(users: names).contains("boundedMoments"))
    }

    /// The apps scored when bounded are the most recently opened ones: the linked order kept on
    /// each open matches a plain reference over random opens.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theBoundKeepsTheMostRecentlyOpenedApps(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let apps = PredictionBench.maxAppsScored + 100
        let start: Int64 = 1_736_150_400_000
        var events: [UsageEvent] = []
        for i in 0..<(4 * apps) {
            let app = i < apps ? i : Int(rng.next() % UInt64(apps))
            events.append(UsageEvent(time: Instant(millis: start + Int64(i) * 20_000), user: 0, app: Int32(app), kind: .open))
        }
        let bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: false)
        let chosen = bench.appsScoredAtEnd(events: events)
        // Reference: the last open of each app, newest first, the opened one left out.
        var last: [Int: Int] = [:]
        for (i, e) in events.enumerated() { last[Int(e.app)] = i }
        let opened = Int(events.last!.app)
        let reference = last.filter { $0.key != opened }.sorted { $0.value > $1.value }.prefix(PredictionBench.maxAppsScored).map(\.key).sorted()
        #expect(chosen == reference)
    }
}
