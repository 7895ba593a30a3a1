import FetchCore
import FetchTesting
import Testing

/// The iOS model asks only for the apps the user opens most, as many as `topApps`.
struct IOSPolicyTests {
    /// Three days on which "a" is opened six times, then "b" four, "c" twice and "d" once.
    static func log() -> LogBuilder {
        var log = LogBuilder()
        for day in 0..<3 {
            for (app, times, start) in [("a", 6, 7 * 60), ("b", 4, 7 * 60 + 10), ("c", 2, 7 * 60 + 20), ("d", 1, 7 * 60 + 30)] {
                for k in 0..<times {
                    let m = start + k
                    log.open(app, at: String(format: "%02d:%02d", m / 60, m % 60), plusDays: day)
                }
            }
            log.add(.screenOff, at: "23:00", plusDays: day)
        }
        return log
    }

    @Test(arguments: [(1, ["a"]), (2, ["a", "b"]), (3, ["a", "b", "c"]), (8, ["a", "b", "c", "d"])])
    func onlyTheMostOpenedAppsAreAskedFor(top: Int, expected: [String]) {
        let log = Self.log()
        let trace = RecordingTrace()
        _ = log.replay(IOSPolicy(topApps: top, threshold: 0), trace: trace)
        #expect(Set(trace.rows.map { log.apps[$0.app] }) == Set(expected))
    }
}
