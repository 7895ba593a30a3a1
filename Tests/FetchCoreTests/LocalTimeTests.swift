import FetchCore
import Testing

struct LocalTimeTests {
    @Test(arguments: [(1970, 1, 1, Int64(0)), (2000, 2, 29, 11_016), (2025, 1, 6, 20_094), (1969, 12, 31, -1)])
    func civilDatesRoundTrip(y: Int, m: Int, d: Int, days: Int64) {
        #expect(LocalTime.days(year: y, month: m, day: d) == days)
        let c = LocalTime.civil(day: days)
        #expect(c.year == y && c.month == m && c.day == d)
    }

    @Test func theLocalDayFollowsTheOffset() {
        let t = LocalTime.days(year: 2025, month: 1, day: 6) * Millis.day + 23 * Millis.hour + 30 * Millis.minute
        #expect(LocalTime.dateText(day: LocalTime.day(t, offsetMinutes: 0)) == "2025-01-06")
        #expect(LocalTime.dateText(day: LocalTime.day(t, offsetMinutes: 60)) == "2025-01-07")
        #expect(LocalTime.weekday(ofDay: LocalTime.days(year: 2025, month: 1, day: 6)) == 0)  // a Monday
    }
}
