@testable import FetchCore
import FetchResults
import Testing

/// `next`'s plan as people read it: its table of wakes and its account in words.
struct PlanTextTests {
    static func trigger(_ kind: FetchPlan.Trigger.Kind, fetch: Bool, refusal: Refusal? = nil) -> FetchPlan.Trigger {
        FetchPlan.Trigger(kind: kind, chance: 0.5, windowStart: 0, windowEnd: Millis.hour, time: 30 * Millis.minute, offsetMinutes: 0,
                          fetch: fetch, refusal: refusal, expectedRescues: 0.491, costJoules: 2.9,
                          energyMicroJ: fetch ? 28_000_000 : nil, bytes: fetch ? 1000 : nil, network: .wifi, reason: "a reason")
    }

    /// Whatever the apps' names and the refusals, every row of the wakes' table has its columns
    /// where the header has them: each row is as long as the header.
    @Test(arguments: [3, 40, 120])
    func theWakesTableAlignsForAnyName(length: Int) throws {
        var plan = FetchPlan(user: "u", app: "a", at: 0, horizon: Millis.day, interval: .minimum, energyBudget: 1)
        plan.reason = "none"
        plan.triggers = [Self.trigger(.screenOn, fetch: true), Self.trigger(.open(after: String(repeating: "x", count: length)), fetch: false),
                         Self.trigger(.plugged, fetch: false, refusal: .energyBudget), Self.trigger(.push, fetch: false)]
        let lines = plan.table.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("wake ") })
        let rows = lines[(header + 1)...]
        #expect(rows.count == 4)
        for row in rows { #expect(row.count == lines[header].count, "\(row)\n\(lines[header])") }
        #expect(lines[header].hasSuffix("typical J  drawn J") && rows.first!.hasSuffix("2.90    28.00"))
    }

    /// The two energies are named: the wake's fetch as drawn, and the rule's typical fetch.
    @Test func theExplanationSaysWhichEnergyIsTheWakesFetch() {
        var plan = FetchPlan(user: "u", app: "a", at: 0, horizon: Millis.day, interval: .minimum, energyBudget: 1)
        plan.reason = "none"
        plan.triggers = [Self.trigger(.screenOn, fetch: true)]
        #expect(plan.explanation.contains("fetch (this wake's fetch, as the engine draws it, spends 28.0 J)"))
    }
}
