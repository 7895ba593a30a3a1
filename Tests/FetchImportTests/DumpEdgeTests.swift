import FetchCore
import FetchImport
import Foundation
import Testing

/// Issue 64, usage-statistics dumps: daylight saving resolved by the dump's own order, ISO dates
/// read under every `--date-order`, and profile lines that cannot be read never merged into
/// another profile.
struct DumpEdgeTests {
    static func line(_ time: String, _ package: String) -> Substring {
        "    time=\"\(time)\" type=ACTIVITY_RESUMED package=\(package) class=\(package).Main"
    }

    static func berlin() throws -> UTCOffsetRule {
        let tz = try #require(TimeZone(identifier: "Europe/Berlin"))
        return UTCOffsetRule(name: "Europe/Berlin") { tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0) / 1000)) / 60 }
    }

    static func read(_ lines: [Substring], offset: UTCOffsetRule, order: DumpDate.Order? = nil,
                     profile: Int? = nil) throws -> (rows: [ImportedRow], problems: [String]) {
        var reader = try UsageStatsReader(user: "ann", offset: offset, profile: profile, dateOrder: order)
        var log = ImportedLog()
        var problems: [String] = []
        for l in lines {
            do throws(ImportProblem) { try reader.read(l, into: &log) } catch { problems.append(error.message) }
        }
        return (log.rows, problems)
    }

    static func utc(_ text: String) -> Int64 {
        Int64(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 * 1000)
    }

    /// 2024-10-27 in Berlin: 03:00 CEST became 02:00 CET. The dump's 02:10, 02:50, then 02:20 and
    /// 03:10 are, in the phone's order, the first 02:10 and 02:50 (+02:00) and the second 02:20.
    @Test func theHourAFallBackRepeatsIsReadInTheDumpsOrder() throws {
        let times = ["2024-10-27 01:55:00", "2024-10-27 02:10:00", "2024-10-27 02:50:00", "2024-10-27 02:20:00", "2024-10-27 03:10:00"]
        let (rows, problems) = try Self.read(times.enumerated().map { Self.line($1, "com.app\($0)") }, offset: try Self.berlin())
        #expect(problems.isEmpty, "\(problems)")
        #expect(rows.map(\.millis) == ["2024-10-26T23:55:00Z", "2024-10-27T00:10:00Z", "2024-10-27T00:50:00Z", "2024-10-27T01:20:00Z",
                                      "2024-10-27T02:10:00Z"].map(Self.utc))
        #expect(rows.map(\.offsetMinutes) == [120, 120, 120, 60, 60])
        #expect(rows.map(\.millis) == rows.map(\.millis).sorted(), "the device's order changed")
    }

    /// 2024-03-31 in Berlin: 02:00 CET became 03:00 CEST; 02:30 never happened there.
    @Test func aTimeTheSpringForwardSkippedIsRefusedNamingTheZone() throws {
        let lines = ["2024-03-31 01:59:00", "2024-03-31 02:30:00", "2024-03-31 03:01:00"].map { Self.line($0, "com.a") }
        let (rows, problems) = try Self.read(lines, offset: try Self.berlin())
        #expect(rows.map(\.millis) == ["2024-03-31T00:59:00Z", "2024-03-31T01:01:00Z"].map(Self.utc))
        #expect(problems.count == 1 && problems[0].contains("does not exist in Europe/Berlin"), "\(problems)")
    }

    @Test(arguments: DumpDate.Order.allCases)
    func anISODateReadsTheSameUnderEveryOrder(order: DumpDate.Order) throws {
        let (rows, problems) = try Self.read([Self.line("2024-03-11 14:26:15", "com.a")], offset: .fixed(minutes: 0), order: order)
        #expect(problems.isEmpty, "\(problems)")
        #expect(rows.map(\.millis) == [Self.utc("2024-03-11T14:26:15Z")])
    }

    /// A profile line that names no profile: refused with the line; its events are never the
    /// first user's (with skipping, each is a problem of its own, not a row of another profile).
    @Test(arguments: ["user=abc", "user=-1", "user=", "user=12345678901234567890"])
    func aProfileLineThatNamesNoProfileIsNeverMerged(header: String) throws {
        let lines: [Substring] = ["user=0", Self.line("2024-03-11 08:00:00", "com.first"), Substring(header),
                                  Self.line("2024-03-11 09:00:00", "com.other"), "user=10", Self.line("2024-03-11 10:00:00", "com.work")]
        let (rows, problems) = try Self.read(lines, offset: .fixed(minutes: 0))
        #expect(problems.first?.contains("is not user=N") == true, "\(problems)")
        #expect(problems.count == 2, "\(problems)")
        #expect(rows.map(\.user) == ["ann", "ann-10"])
    }
}
