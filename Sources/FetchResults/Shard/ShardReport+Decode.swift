#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

extension ShardReport {
    /// Reads and checks one shard report's bytes: the format and version, every number a whole
    /// count, valid user names, calendar dates, totals that are the sums of their rows. Returns
    /// it with the sum of its counts, for a merge to check.
    ///
    /// The report is decoded without its rows, and each row alone (the rows found by a scan of
    /// the text's structure), so that the decoder never holds the whole text's tree. With
    /// `makeArchive`, each part's rows go to an archive of their own as they are read
    /// (``UserRowArchive``), and memory holds the text, the report without its rows, and one row.
    /// It takes and refuses what a decode of the whole text would, in the same words: a text the
    /// scan cannot lay out, or that does not decode in pieces, is decoded whole. Problems are
    /// ``ShardProblem``s; an archive's own errors pass as they are.
    public static func decode(_ bytes: [UInt8], keepingRowsIn makeArchive: (() throws -> any UserRowArchive)? = nil) throws
        -> (report: ShardReport, countSum: Double) {
        guard bytes.count <= maxFileBytes else { throw ShardProblem("is \(bytes.count) bytes (at most \(maxFileBytes))") }
        guard let layout = ShardReportLayout(bytes) else { return try decodeWhole(bytes) }
        // The text without its rows: each part's `perUser` left as `[]`.
        var stripped: [UInt8] = []
        var from = 0
        for part in layout.parts {
            stripped += bytes[from..<part.contents.lowerBound]
            from = part.contents.upperBound
        }
        stripped += bytes[from...]
        let decoder = JSONDecoder()
        guard var report = try? decoder.decode(ShardReport.self, from: Data(stripped)),
              report.results.count == layout.parts.count else { return try decodeWhole(bytes) }
        stripped = []
        // Counted before any tally is added up, so that no sum can overflow; refused in its turn below.
        let counts = countsProblem(bytes)
        let bounded = (try? counts.get()).map { $0 <= maxCountSum } ?? false
        var summaries: [RowsSummary] = []
        for (p, part) in layout.parts.enumerated() {
            let archive = try makeArchive?()
            var held: [ReplayResult.UserRow] = []
            var summary = RowsSummary()
            for range in part.rows {
                guard let row = try? decoder.decode(ReplayResult.UserRow.self, from: Data(bytes[range])) else {
                    return try decodeWhole(bytes)
                }
                summary.add(row, sums: bounded)
                if let archive { archive.append(row) } else { held.append(row) }
            }
            report.results[p].perUser = archive.map { UserRows($0.sealed()) } ?? UserRows(held)
            summaries.append(summary)
        }
        // The whole text decodes (the report without its rows, and every row): its checks, in order.
        guard report.format == formatName else { try checkFormat(Data(bytes)); throw ShardProblem("not a shard report") }
        let countSum = try counts.get()
        guard countSum <= maxCountSum else { throw ShardProblem("its counts add up past 2^61") }
        try check(report, summaries)
        return (report, countSum)
    }

    /// ``decode(_:keepingRowsIn:)`` of the text at once, rows in memory: what a text the scan
    /// cannot lay out is read by, for the decoder's own account of what is wrong with it.
    static func decodeWhole(_ bytes: [UInt8]) throws(ShardProblem) -> (report: ShardReport, countSum: Double) {
        guard bytes.count <= maxFileBytes else { throw ShardProblem("is \(bytes.count) bytes (at most \(maxFileBytes))") }
        let data = Data(bytes)
        try checkFormat(data)
        let countSum = try countsProblem(bytes).get()
        guard countSum <= maxCountSum else { throw ShardProblem("its counts add up past 2^61") }
        let report: ShardReport
        do { report = try JSONDecoder().decode(ShardReport.self, from: data) } catch {
            throw ShardProblem("not a valid shard report (\(describe(error)))")
        }
        try check(report, report.results.map { part in
            var summary = RowsSummary()
            for row in part.perUser { summary.add(row, sums: true) }
            return summary
        })
        return (report, countSum)
    }

    /// What a part's rows come to for the checks: the first user name that is not one, and
    /// (once the counts are bounded) the sum of their tallies and of their days.
    struct RowsSummary {
        var badName: (user: String, problem: String)?
        var tally = Tally()
        var days = 0

        mutating func add(_ row: ReplayResult.UserRow, sums: Bool) {
            if badName == nil, let problem = InputBounds.nameProblem(row.user) { badName = (row.user, problem) }
            guard sums else { return }
            tally.merge(row.tally)
            days += row.days
        }
    }

    /// The checks of a decoded report whose counts are bounded, in order: its version, shard and
    /// seed, then each part's user names, dates and totals (with its rows' `summaries`).
    private static func check(_ report: ShardReport, _ summaries: [RowsSummary]) throws(ShardProblem) {
        guard report.version == currentVersion else {
            throw ShardProblem("version \(report.version); this fetchsched reads version \(currentVersion)")
        }
        guard UserShard(report.shard) != nil else { throw ShardProblem("shard '\(InputBounds.printable(report.shard))' is not i/n") }
        guard UInt64(report.run.seed) != nil else { throw ShardProblem("seed '\(InputBounds.printable(report.run.seed))' is not a seed") }
        for (part, summary) in zip(report.results, summaries) {
            if let (user, problem) = summary.badName { throw ShardProblem("user '\(InputBounds.printable(user))' \(problem)") }
            for row in part.perDay where !isDate(row.date) {
                throw ShardProblem("day '\(InputBounds.printable(row.date))' is not a date YYYY-MM-DD")
            }
            if let problem = part.totalsProblem(users: summary.tally, userDays: summary.days) {
                throw ShardProblem("policy '\(InputBounds.printable(part.policy))': \(problem)")
            }
        }
    }

    /// The sum of every number in a shard report's JSON text, or the first that is not a whole
    /// count (digits only, at most 18 of them) by its byte offset.
    ///
    /// A scan of the bytes rather than of a decoded tree: every number in the report is a count,
    /// so one rule covers them all, and Foundation's JSON trees cost seconds per megabyte.
    static func countsProblem(_ bytes: [UInt8]) -> Result<Double, ShardProblem> {
        var sum = 0.0, i = 0, inString = false
        while i < bytes.count {
            let c = bytes[i]
            if inString {
                if c == UInt8(ascii: "\\") { i += 1 } else if c == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if c == UInt8(ascii: "\"") { inString = true; i += 1; continue }
            // true, false, null
            if c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") {
                while i < bytes.count, bytes[i] >= UInt8(ascii: "a") && bytes[i] <= UInt8(ascii: "z") { i += 1 }
                continue
            }
            let start = i
            var digitsOnly = true
            while i < bytes.count, Self.numberBytes.contains(bytes[i]) {
                if !(bytes[i] >= 0x30 && bytes[i] <= 0x39) { digitsOnly = false }
                i += 1
            }
            if i == start { i += 1; continue }
            let token = bytes[start..<i]
            guard digitsOnly, token.count <= 18, let n = Int64(String(decoding: token, as: UTF8.self)) else {
                let shown = InputBounds.printable(String(decoding: token.prefix(30), as: UTF8.self))
                return .failure(ShardProblem("the number at byte \(start) ('\(shown)') is not a whole count"))
            }
            sum += Double(n)
        }
        return .success(sum)
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)

    /// A calendar date from 1970 to 2099, as the engine writes days.
    public static func isDate(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 10 && b[4] == UInt8(ascii: "-") && b[7] == UInt8(ascii: "-")
            && b.enumerated().allSatisfy({ i, c in i == 4 || i == 7 || (c >= 0x30 && c <= 0x39) }) else { return false }
        let number = { (r: Range<Int>) in r.reduce(0) { $0 * 10 + Int(b[$1] - 0x30) } }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        return (1970...2099).contains(year) && (1...12).contains(month) && day >= 1 && day <= LocalTime.daysInMonth(year: year, month: month)
    }

    /// Refuses a text that is not JSON, or JSON that is not a shard report, each in its own words.
    private static func checkFormat(_ data: Data) throws(ShardProblem) {
        struct Format: Decodable { var format: String }
        let format: String
        do { format = try JSONDecoder().decode(Format.self, from: data).format } catch {
            if case DecodingError.dataCorrupted = error { throw ShardProblem("not JSON (\(describe(error)))") }
            throw ShardProblem("not a shard report (no \"format\": \"\(formatName)\" in it)")
        }
        guard format == formatName else {
            throw ShardProblem("not a shard report (its format is '\(InputBounds.printable(format))', not \(formatName))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "\(error)" }
        switch e {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
            let at = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return (at.isEmpty ? "" : "at \(at): ") + c.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension ShardReport.Part {
    /// What is wrong with the part's totals, or nil: its total must be the sum of its users' and
    /// the sum of its days', and the days its users were active must be the users its days had.
    /// The caller has bounded the counts' sum, so none of these sums can overflow.
    public func totalsProblem() -> String? {
        var users = Tally()
        for row in perUser { users.merge(row.tally) }
        return totalsProblem(users: users, userDays: perUser.days)
    }

    /// ``totalsProblem()`` with the sums of the users' tallies and days given.
    func totalsProblem(users: Tally, userDays: Int) -> String? {
        var byDay = Tally()
        for row in perDay { byDay.merge(row.tally) }
        if users != total { return "its total is not the sum of its users' (perUser)" }
        if byDay != total { return "its total is not the sum of its days' (perDay)" }
        if userDays != perDay.reduce(0, { $0 + $1.users }) {
            return "its users' active days do not add up to its days' active users"
        }
        return nil
    }
}
