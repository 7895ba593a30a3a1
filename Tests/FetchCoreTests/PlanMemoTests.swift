@testable import FetchCore
import FetchTesting
import Testing

/// A question asked again before the user's next event or fetch report is answered from the
/// plans the session kept; what it answers is always the plan computed anew from the live state.
struct PlanMemoTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func aPlanAskedAgainIsThePlanComputedAnewWhateverCameBetween(seed: UInt64) throws {
        let log = RandomLog(seed: seed, users: 1, days: 3, eventsPerDay: 60, apps: 3)
        let planner = FetchPlanner(scenario: RandomLog.scenario(seed: seed, apps: 3), seed: seed)
        let session = PlanningSession(planner: planner, user: "u0", apps: log.apps)
        var rng = SplitMix64(seed: seed)
        var asked = 0
        // Few questions, so that most are asked again: before and after each event and report.
        func ask(at now: Int64) throws {
            for _ in 0..<rng.int(in: 0...3) {
                let app = "app\(rng.int(in: 0...1))"
                let at: Int64? = rng.chance(0.5) ? nil : now + Int64(rng.int(in: 0...1)) * Millis.hour
                let kept = session.plan(app: app, at: at, horizon: Millis.day)
                let anew = session.planAnew(app: app, at: at, horizon: Millis.day)
                #expect(try ResultText.json(kept) == ResultText.json(anew), "seed \(seed) at \(now)")
                // Its JSON, kept with it, names the user as asked (a tenant's user is stored under another name).
                let name = rng.chance(0.5) ? "u0" : "tenant-u0"
                var named = anew
                named.user = name
                #expect(try session.planJSON(app: app, at: at, horizon: Millis.day, naming: name) == ResultText.json(named))
                asked += 1
            }
        }
        for e in log.events {
            session.receive(e)
            try ask(at: e.time.millis)
            if rng.chance(0.3), let user = session.userID {
                let result = FetchResult.allCases[rng.int(in: 0...3)]
                session.report(FetchReport(app: Int32(rng.int(in: 0...1)), start: e.time, offsetMinutes: e.offsetMinutes,
                                           durationMs: Int64(rng.int(in: 100...30_000)), bytes: Int64(rng.int(in: 0...500_000)),
                                           network: rng.chance(0.5) ? .wifi : .cellular, result: result), user: user)
                try ask(at: e.time.millis)
            }
        }
        #expect(asked > 100)
    }

    /// Whatever the plans' sizes, the memo holds at most its capacity and its bytes, keeps the
    /// newest plan that fits, and a plan too large alone is not kept.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theMemoStaysWithinItsCountAndBytes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var memo = PlanMemo()
        let entry = FetchPlan.Entry(time: 0, offsetMinutes: 0, network: .wifi, energyMicroJ: 1, bytes: 1, windowStart: 0, windowEnd: 1,
                                    probability: 0.5, energyUsedBefore: 0)
        for i in 0..<2_000 {
            var plan = FetchPlan(user: "u", app: "a\(i % 11)", at: Int64(i), horizon: Millis.day, interval: .minimum, energyBudget: 1)
            plan.entries = Array(repeating: entry, count: rng.int(in: 0...(rng.chance(0.05) ? 800 : 60)))
            let question = PlanMemo.Question(app: plan.app, at: rng.chance(0.5) ? nil : Int64(i), horizon: Millis.day)
            memo.keep(plan, for: question)
            let fits = PlanMemo.Kept(question: question, plan: plan).bytes <= PlanMemo.maxBytes
            #expect((memo.plan(for: question) != nil) == fits)
            if fits && rng.chance(0.5) {
                let text = String(repeating: "x", count: rng.int(in: 0...20_000))
                memo.keep(json: text, naming: "u", for: question)
            }
            #expect(memo.kept.count <= PlanMemo.capacity)
            #expect(memo.bytes <= PlanMemo.maxBytes)
            #expect(memo.bytes == memo.kept.reduce(0) { $0 + $1.bytes })
        }
        memo.forget()
        #expect(memo.kept.isEmpty && memo.bytes == 0)
    }
}
