import ArgumentParser
import FetchCore
import FetchImport
import FetchStorage
import Foundation

/// `fetchsched import`: Android usage statistics, Digital Wellbeing's database, AWARE exports or
/// an iPhone's knowledgeC.db turned into a canonical log.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn Android usage-statistics dumps, Digital Wellbeing's database, AWARE CSV exports or an iPhone's knowledgeC.db "
            + "into a canonical usage log.",
        discussion: """
            usagestats: the text of 'adb shell dumpsys usagestats', or a CSV of UsageStatsManager events \
            (timestamp,package,event_type); one user, named by --user. wellbeing: the app_usage database of Android's \
            Digital Wellbeing (opens, unlocks and notifications, about a month; UTC times, so --utc-offset or --time-zone); one user, \
            named by --user. aware: CSV exports of the tables applications_foreground, applications_notifications, screen, battery, \
            network and timezone (AWARE's own, or re-exported with times in seconds), or a MySQL dump of an AWARE server; each \
            device is a user unless --user names one for all. knowledgec: an iPhone's knowledgeC.db (iOS 10 to 15): \
            app focus, lock, plug and battery, each record with its own UTC offset; one user, named by --user. Formats \
            and mapping: docs/formats.md.
            """)

    enum Source: String, ExpressibleByArgument, CaseIterable { case usagestats, wellbeing, aware, knowledgec }

    @Option(help: "The source's format: usagestats, wellbeing, aware or knowledgec.")
    var from: Source

    @Argument(help: ArgumentHelp("The files to read.", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("The canonical log to write (CSV), replaced only when the import succeeds.", valueName: "file.csv"))
    var out: String

    @Option(help: "The user's name in the log (required for usagestats, wellbeing and knowledgec; for aware, one name for every device).")
    var user: String?

    @Option(help: ArgumentHelp("The user's UTC offset, e.g. +01:00, where the source has none.", valueName: "offset"))
    var utcOffset: String?

    @Option(help: ArgumentHelp("The user's time zone (IANA, e.g. Europe/Berlin), daylight saving included, where the source has none.", valueName: "zone"))
    var timeZone: String?

    @Option(help: ArgumentHelp("A package to drop as a launcher (repeatable), beyond the known ones.", valueName: "package"))
    var launcher: [String] = []

    @Option(help: ArgumentHelp("A package to drop as system UI or a keyboard (repeatable), beyond the known ones.", valueName: "package"))
    var overlay: [String] = []

    @Option(help: ArgumentHelp("usagestats: read only this Android user profile (user=N in the dump); without it, each profile is a user of its own.",
                               valueName: "N"))
    var profile: Int?

    @Option(help: ArgumentHelp("usagestats: the order of day and month in a dump's dates (ymd, dmy or mdy), where the phone's locale wrote "
                               + "them before Android 10 and a date could be read either way.", valueName: "order"))
    var dateOrder: DumpDate.Order?

    @Flag(help: "Skip malformed or unknown rows, counted by reason, instead of stopping at the first.")
    var skipInvalid = false

    func validate() throws {
        if let profile, !(0...999_999).contains(profile) { throw ValidationError("--profile \(profile) is not a user profile number (0 to 999999)") }
        if profile != nil && from != .usagestats { throw ValidationError("--profile is for --from usagestats") }
        if dateOrder != nil && from != .usagestats { throw ValidationError("--date-order is for --from usagestats") }
        if utcOffset != nil && timeZone != nil { throw ValidationError("give --utc-offset or --time-zone, not both") }
        if from == .usagestats && user == nil { throw ValidationError("--from usagestats needs --user: a dump holds one person's events") }
        if from == .knowledgec && (utcOffset != nil || timeZone != nil) {
            throw ValidationError("--from knowledgec takes no --utc-offset or --time-zone: each record carries the phone's offset of its moment")
        }
        if from == .knowledgec && user == nil { throw ValidationError("--from knowledgec needs --user: a knowledgeC.db holds one person's events") }
        if from == .usagestats && utcOffset == nil && timeZone == nil {
            throw ValidationError("--from usagestats needs --utc-offset or --time-zone: the dump prints local times without an offset")
        }
        if from == .wellbeing && user == nil { throw ValidationError("--from wellbeing needs --user: an app_usage database holds one person's events") }
        if from == .wellbeing && utcOffset == nil && timeZone == nil {
            throw ValidationError("--from wellbeing needs --utc-offset or --time-zone: the database keeps UTC times without the phone's offset")
        }
    }

    func run() throws {
        try AtomicFile.refuse(outputs: [out], over: files)
        let offset = try offsetRule()
        var log = ImportedLog()
        var skipped: [String: Int] = [:]
        var notes: [String] = []
        let read: (String, inout ImportedLog, (Substring, inout ImportedLog) throws(ImportProblem) -> Void) throws -> Void = { path, log, body in
            log.beginSection()
            try Self.lines(of: path, skipping: skipInvalid, { line in try body(line, &log) }) { problem, number in
                try stopOrCount(problem, at: "\(path):\(number)", skipped: &skipped)
            }
        }
        switch from {
        case .usagestats:
            var reader = try wrap { () throws(ImportProblem) in
                try UsageStatsReader(user: user ?? "", offset: offset!, profile: profile, dateOrder: dateOrder)
            }
            for path in files { try read(path, &log) { line, log throws(ImportProblem) in try reader.read(line, into: &log) } }
        case .wellbeing:
            try readWellbeing(offset: offset!, into: &log, skipped: &skipped)
        case .knowledgec:
            try readKnowledge(into: &log, skipped: &skipped)
        case .aware:
            notes = try readAware(offset: offset, into: &log, skipped: &skipped)
        }
        let rules = ForegroundRules(launchers: ForegroundRules.knownLaunchers.union(launcher),
                                    overlays: ForegroundRules.knownOverlays.union(overlay))
        let file = try AtomicFile(path: out)
        let events = log.canonical(rules: rules) { file.write($0 + "\n") }
        guard events > 0 else {
            let counts = summary(events: 0, log: log, skipped: skipped).split(separator: "\n").dropFirst().joined(separator: "; ")
            throw CLIError("no usage events found in \(files.joined(separator: ", ")) (nothing was written)" + (counts.isEmpty ? "" : ": " + counts))
        }
        try file.commit()
        printError(([summary(events: events, log: log, skipped: skipped)] + notes).joined(separator: "\n"))
    }

    /// A private directory in TMPDIR for the copies of the phone's databases, removed with them
    /// however the run ends (a stop signal too, ``RunStop``).
    static func scratchDirectory() throws -> String {
        guard let path = RunStop.shared.scratchDirectory(in: TemporaryFile.directory, label: "import") else {
            throw CLIError("cannot make a private directory in \(TemporaryFile.directory) to copy the database into: "
                           + "\(String(cString: strerror(errno))) (set TMPDIR to a directory with room)")
        }
        return path
    }

    /// Reads each knowledgeC.db given: its records in start order, each wrong one stopping the
    /// import or counted by reason.
    func readKnowledge(into log: inout ImportedLog, skipped: inout [String: Int]) throws {
        let name = try wrap { () throws(ImportProblem) in try KnowledgeRecord.checkUser(user ?? "") }
        let scratch = try Self.scratchDirectory()
        defer { RunStop.shared.forget(scratch: scratch) }
        for path in files {
            log.beginSection()
            do {
                try KnowledgeCSource.read(path: path, directory: scratch, user: name, into: &log) { problem, record in
                    guard skipInvalid else {
                        throw CLIError("\(path): ZOBJECT \(record.label): \(problem.message) "
                                       + "(nothing was written; use --skip-invalid to count and skip such rows)")
                    }
                    skipped[problem.reason, default: 0] += 1
                }
            } catch let p as ImportProblem {
                throw CLIError("\(p.message) (nothing was written; try --from usagestats or aware if it is not an iPhone's)")
            } catch let e as CLIError {
                throw e
            } catch { throw CLIError("\(path): \(error) (nothing was written)") }
        }
    }

    /// Reads each Digital Wellbeing database given: its events in time order, each wrong one
    /// stopping the import or counted by reason.
    func readWellbeing(offset: UTCOffsetRule, into log: inout ImportedLog, skipped: inout [String: Int]) throws {
        let name = try wrap { () throws(ImportProblem) in try WellbeingSource.checkUser(user ?? "") }
        let scratch = try Self.scratchDirectory()
        defer { RunStop.shared.forget(scratch: scratch) }
        for path in files {
            log.beginSection()
            do {
                try WellbeingSource.read(path: path, directory: scratch, user: name, offset: offset, into: &log) { problem, id in
                    guard skipInvalid else {
                        throw CLIError("\(path): events _id=\(id.map(String.init) ?? "?"): \(problem.message) "
                                       + "(nothing was written; use --skip-invalid to count and skip such rows)")
                    }
                    skipped[problem.reason, default: 0] += 1
                }
            } catch let p as ImportProblem {
                throw CLIError("\(p.message) (nothing was written; try --from usagestats if it is a dump)")
            } catch let e as CLIError {
                throw e
            } catch { throw CLIError("\(path): \(error) (nothing was written)") }
        }
    }

    /// Stops the import at a row's problem, naming its place (`file:line`), or with
    /// `--skip-invalid` counts it by reason. A table this does not read is refused by name even
    /// when rows are skipped: its rows read as another table's would be wrong, not malformed.
    func stopOrCount(_ problem: ImportProblem, at place: String, skipped: inout [String: Int]) throws {
        guard skipInvalid, problem.reason != AwareReader.unknownTable else {
            throw CLIError("\(place): \(problem.message) (nothing was written; \(Self.fix(for: problem, from: from)))")
        }
        skipped[problem.reason, default: 0] += 1
    }

    func summary(events: Int, log: ImportedLog, skipped: [String: Int]) -> String {
        var text = "wrote \(events) events to \(out)"
        if !log.ignored.isEmpty { text += "\nleft out: " + log.ignored.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        if !skipped.isEmpty { text += "\nskipped (--skip-invalid): " + skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        return text
    }

    func offsetRule() throws -> UTCOffsetRule? {
        if let text = utcOffset {
            // `Z` is a time's mark of UTC, not an offset one gives: +00:00 says the same plainly.
            guard text != "Z" else { throw CLIError("--utc-offset 'Z' is not an offset such as +01:00 or -05:30 (for UTC, give +00:00)") }
            guard let minutes = UTCOffsetRule.parseOffset(text) else {
                throw CLIError("--utc-offset '\(InputBounds.printable(text))' is not an offset such as +01:00 or -05:30")
            }
            return .fixed(minutes: minutes)
        }
        if let name = timeZone {
            guard let rule = Self.zone(name) else { throw CLIError("--time-zone '\(name)' is not a known time zone such as Europe/Berlin") }
            return rule
        }
        return nil
    }

    /// What to do about a problem that stops the import, said with the stop.
    static func fix(for problem: ImportProblem, from: Source) -> String {
        switch problem.reason {
        case AwareReader.unknownTable: "leave the file out, or export it as one of these tables"
        case "bad header" where from == .usagestats: "is it AWARE's? try --from aware; else --skip-invalid counts and skips such rows"
        case "bad header": "is it a usage-statistics dump? try --from usagestats; else --skip-invalid counts and skips such rows"
        default: "use --skip-invalid to count and skip such rows"
        }
    }

    /// A zone of the IANA database by any of its names (`Europe/Berlin`, `CET`, `GMT`,
    /// `US/Eastern`), with its daylight-saving changes.
    @Sendable static func zone(_ name: String) -> UTCOffsetRule? {
        guard name.utf8.count <= 64, let tz = TimeZone(identifier: name) else { return nil }
        return UTCOffsetRule(name: name) { millis in tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(millis) / 1000)) / 60 }
    }

    func wrap<T>(_ body: () throws(ImportProblem) -> T) throws -> T {
        do { return try body() } catch { throw CLIError(error.message) }
    }

    static func firstLine(of path: String) throws -> Substring? {
        let reader: LineReader
        do { reader = try LineReader(path: path, skipsLongLines: false) } catch { throw CLIError(error.description) }
        var first: Substring?
        _ = reader.next { bytes in first = String(validating: bytes, as: UTF8.self).map { Substring($0) } }
        return first
    }

    /// Each line of a file as UTF-8 text with its number. A line too long, not UTF-8, or cut off
    /// is a problem of that line: `problem` decides whether it stops the import or is skipped.
    /// Without skipping, a long line stops the read at once.
    ///
    /// A last line with no newline after it is read as any other when its format finds it whole
    /// (many tools write files so); only when its reader refuses it is it reported as cut off.
    static func lines(of path: String, skipping: Bool, _ body: (Substring) throws -> Void,
                      problem: (ImportProblem, Int) throws -> Void) throws {
        let reader: LineReader
        do { reader = try LineReader(path: path, skipsLongLines: skipping) } catch { throw CLIError(error.description) }
        while try reader.next({ bytes in
            let number = reader.lineNumber
            if reader.lineTooLong {
                return try problem(ImportProblem("line too long", "a line longer than \(LineReader.maxLineBytes) bytes"), number)
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return try problem(ImportProblem("not UTF-8", "not valid UTF-8"), number)
            }
            do { try body(Substring(text)) } catch let found as ImportProblem {
                guard reader.lineUnterminated && !text.allSatisfy(\.isWhitespace) else { return try problem(found, number) }
                // The line's own reader says whether it is whole: its problems with it are a cut's.
                let message = "the file ends inside this line (no newline after it): cut off? (\(found.message))"
                try problem(ImportProblem("cut-off last line", message), number)
            }
        }) {}
    }
}

extension DumpDate.Order: ExpressibleByArgument {}
