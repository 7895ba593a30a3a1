@testable import FetchCore
@testable import FetchResults
import Testing

/// `--per app`: an app's fetches, days and opens as a developer reads them (``AppReport``).
struct AppReportTests {
    static let hour = Millis.day / 24, minute = Millis.minute

    static func fetch(_ r: AppRecorder, user: Int32, app: Int32, at t: Int64, refused: Bool = false) {
        r.record(TraceRow(user: user, app: app, start: t, offsetMinutes: 0, unixForm: false, durationMs: 1_000,
                          result: refused ? nil : .newData, network: .wifi, energyMicroJ: 1, bytes: 1, refusal: refused ? .energyBudget : nil))
    }

    @Test func aHandMadeDayByDayStoryGivesTheFiguresWorkedOutByHand() throws {
        let users = NameTable(), apps = NameTable()
        let (u0, u1, news, chat) = (users.id("u0"), users.id("u1"), apps.id("news"), apps.id("chat"))
        let r = AppRecorder(users: users, apps: apps)
        let day = Millis.day, h = Self.hour
        // u0: opens news on day 0 at 10:00, fetches at 11:00 and 12:30, a refused request, a fetch on day 2, a rescued open on day 3.
        r.recordOpen(user: u0, app: news, time: 10 * h, offsetMinutes: 0, fresh: false, rescued: false)
        Self.fetch(r, user: u0, app: news, at: 11 * h)
        Self.fetch(r, user: u0, app: news, at: 12 * h + 30 * Self.minute)
        Self.fetch(r, user: u0, app: news, at: 13 * h, refused: true)
        Self.fetch(r, user: u0, app: news, at: 2 * day + 8 * h)
        r.recordOpen(user: u0, app: news, time: 3 * day + 9 * h, offsetMinutes: 0, fresh: true, rescued: true)
        // u1: a fetch of news on day 1 before its only open, none after; chat opened on day 5.
        Self.fetch(r, user: u1, app: news, at: day + 6 * h)
        r.recordOpen(user: u1, app: news, time: day + 7 * h, offsetMinutes: 0, fresh: false, rescued: false)
        r.recordOpen(user: u1, app: chat, time: 5 * day + 7 * h, offsetMinutes: 0, fresh: true, rescued: false)
        let report = AppReport([("p", r)])
        #expect(report.rows.map(\.app) == ["chat", "news"])
        let row = try #require(report.rows.last)
        #expect(row.users == 2 && row.opens == 3 && row.fetches == 4)
        // u0: days 0-3, fetches on 0 and 2; u1: days 1-5 (its last day is chat's), a fetch on day 1.
        #expect(row.days == 9 && row.daysWithoutFetch == 6 && row.longestDaysWithoutFetch == 4)
        #expect(row.fetchesPerDay == .init(p10: 0.2, p50: 0.2, p90: 0.75))
        #expect(row.firstFetchMinutes == .init(p10: 60, p50: 60, p90: 60) && row.openedNeverFetched == 1)
        #expect(row.gapMinutes == .init(p50: 90, p90: 2_610))
        #expect(row.freshShare == 0.3333 && row.rescuedShare == 0.3333)
        let chatRow = try #require(report.rows.first)
        #expect(chatRow.fetches == 0 && chatRow.gapMinutes == nil && chatRow.firstFetchMinutes == nil && chatRow.openedNeverFetched == 1)
        #expect(chatRow.days == 1 && chatRow.daysWithoutFetch == 1 && chatRow.freshShare == 1)
        #expect(AppReport([("p", r)], only: ["chat"]).rows == [chatRow])
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomStoriesKeepTheReportsInvariants(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let users = NameTable(), apps = NameTable()
        for u in 0..<6 { _ = users.id("u\(u)") }
        for a in 0..<4 { _ = apps.id("app\(a)") }
        let recorders = [AppRecorder(users: users, apps: apps), AppRecorder(users: users, apps: apps)]
        var opens = [Int](repeating: 0, count: 2), fetches = [Int](repeating: 0, count: 2), rescued = [Int](repeating: 0, count: 2)
        for u in Int32(0)..<6 {
            var t = Int64(rng.next() % 1_000) * Self.minute
            for _ in 0..<Int(rng.next() % 300) {
                t += Int64(rng.next() % 600) * Self.minute
                let p = Int(rng.next() % 2), app = Int32(rng.next() % 4)
                if rng.next() % 3 == 0 {
                    let fresh = rng.next() % 2 == 0, rescue = fresh && rng.next() % 2 == 0
                    recorders[p].recordOpen(user: u, app: app, time: t, offsetMinutes: 60, fresh: fresh, rescued: rescue)
                    opens[p] += 1
                    rescued[p] += rescue ? 1 : 0
                } else {
                    Self.fetch(recorders[p], user: u, app: app, at: t)
                    fetches[p] += 1
                }
            }
        }
        let report = AppReport([("a", recorders[0]), ("b", recorders[1])])
        for (p, policy) in ["a", "b"].enumerated() {
            let rows = report.rows.filter { $0.policy == policy }
            #expect(rows.reduce(0) { $0 + $1.opens } == opens[p])
            #expect(rows.reduce(0) { $0 + $1.fetches } == fetches[p])
            let share = rows.reduce(0.0) { $0 + ($1.rescuedShare ?? 0) * Double($1.opens) }
            #expect(abs(share - Double(rescued[p])) <= Double(opens[p]) * 0.00005 + 1e-9, "shares are rounded to 4 places")
        }
        for row in report.rows {
            #expect(row.users >= 1 && row.users <= 6 && row.daysWithoutFetch <= row.days && row.longestDaysWithoutFetch <= row.daysWithoutFetch)
            #expect(row.fetchesPerDay.p10 <= row.fetchesPerDay.p50 && row.fetchesPerDay.p50 <= row.fetchesPerDay.p90)
            if let g = row.gapMinutes { #expect(g.p50 >= 0 && g.p50 <= g.p90) } else { #expect(row.fetches <= row.users) }
            if let f = row.firstFetchMinutes { #expect(f.p10 >= 0 && f.p10 <= f.p50 && f.p50 <= f.p90) }
            #expect((row.freshShare ?? 0) >= (row.rescuedShare ?? 0))
        }
        #expect(report.rows.map { [$0.app, $0.policy] } == report.rows.map { [$0.app, $0.policy] }.sorted { $0.lexicographicallyPrecedes($1) })
    }
}
