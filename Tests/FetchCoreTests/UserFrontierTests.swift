@testable import FetchBench
@testable import FetchCore
import Testing

/// The frontiers user by user: each family read at every baseline point of the same user, the
/// points past 60% of that user's budget left out, and the worst user named.
struct UserFrontierTests {
    /// A report of `policy` in which each user spent `joules` and rescued `rescued`.
    func report(_ policy: String, _ users: [(name: String, joules: Double, rescued: Int)]) -> ReplayResult {
        let rows = users.map { u -> ReplayResult.UserRow in
            var t = Tally()
            t.energyMicroJ = Int64(u.joules * 1_000_000)
            t.rescuedOpens = u.rescued
            return ReplayResult.UserRow(user: u.name, days: 10, tally: t)
        }
        return ReplayResult(policy: policy, seed: 1, scenario: .default, events: 0, total: Tally(), perUser: UserRows(rows), perDay: [])
    }

    @Test func eachFamilyIsReadAtEachBaselinePointOfTheSameUserAndTheWorstUserIsNamed() {
        let budgetPerDay: Int64 = 100_000_000  // 100 J a day, 1,000 J over each user's ten days
        let reports = [
            report("adaptive:0.1", [("ann", 100, 20), ("bob", 100, 10)]),
            report("adaptive:0.01", [("ann", 400, 40), ("bob", 400, 20)]),
            report("counts:0.3", [("ann", 100, 10), ("bob", 100, 10)]),
            report("counts:0.05", [("ann", 400, 20), ("bob", 400, 40)]),
            report("counts:0.01", [("ann", 900, 90), ("bob", 900, 90)]),  // past 60% of the budget: left out
            report("oracle:opens", [("ann", 200, 60), ("bob", 200, 30)]),
        ]
        let u = UserFrontiers(reports, budgetMicroJPerDay: budgetPerDay)
        #expect(u.families == ["adaptive"])
        #expect(u.rows.map(\.user) == ["ann", "bob"])
        // ann: 20 ÷ 10 and 40 ÷ 20; bob: 10 ÷ 10 and 20 ÷ 40.
        #expect(u.rows[0].versus["adaptive/counts"] == 2...2)
        #expect(u.rows[1].versus["adaptive/counts"] == 0.5...1)
        #expect(u.rows[1].versus["adaptive/appm"] == nil)
        // At oracle:opens' 200 J the curve reads 20 + 20 × 100/300 for ann, of its 60.
        #expect(abs(u.rows[0].atOracleOpens["adaptive"]! - (20 + 20.0 / 3) / 60) < 1e-12)
        #expect(u.worst("adaptive/counts")! == ("bob", 0.5))
        let text = ResultText.userFrontiers(u, markdown: true)
        #expect(text.contains("| bob | 10 | 0.50–1.00 |"))
        #expect(text.contains("Worst user: adaptive ÷ counts 0.50 (bob)"))
    }
}
