import ArgumentParser
import FetchCore
import FetchStorage
import FetchSQLite
import Foundation

/// `fetchsched import`: Android usage statistics or AWARE exports turned into a canonical log.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn Android usage-statistics dumps or AWARE CSV exports into a canonical usage log.",
        discussion: """
            usagestats: the text of 'adb shell dumpsys usagestats', or a CSV of UsageStatsManager events \
            (timestamp,package,event_type); one user, named by --user. aware: CSV exports of the tables \
            applications_foreground, screen, battery, network and timezone; each device_id is a user unless \
            --user names one for all. Formats and mapping: docs/formats.md.
            """)

    enum Source: String, ExpressibleByArgument, CaseIterable { case usagestats, aware }

    @Option(help: "The source's format: usagestats or aware.")
    var from: Source

    @Argument(help: ArgumentHelp("The files to read.", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("The canonical log to write (CSV), replaced only when the import succeeds.", valueName: "file.csv"))
    var out: String

    @Option(help: "The user's name in the log (required for usagestats; for aware, one name for every device).")
    var user: String?

    @Option(help: ArgumentHelp("The user's UTC offset, e.g. +01:00, where the source has none.", valueName: "offset"))
    var utcOffset: String?

    @Option(help: ArgumentHelp("The user's time zone (IANA, e.g. Europe/Berlin), daylight saving included, where the source has none.", valueName: "zone"))
    var timeZone: String?

    @Option(help: ArgumentHelp("A package to drop as a launcher (repeatable), beyond the known ones.", valueName: "package"))
    var launcher: [String] = []

    @Option(help: ArgumentHelp("A package to drop as system UI or a keyboard (repeatable), beyond the known ones.", valueName: "package"))
    var overlay: [String] = []

    @Flag(help: "Skip malformed or unknown rows, counted by reason, instead of stopping at the first.")
    var skipInvalid = false

    func validate() throws {
        if utcOffset != nil && timeZone != nil { throw ValidationError("give --utc-offset or --time-zone, not both") }
        if from == .usagestats && user == nil { throw ValidationError("--from usagestats needs --user: a dump holds one person's events") }
        if from == .usagestats && utcOffset == nil && timeZone == nil {
            throw ValidationError("--from usagestats needs --utc-offset or --time-zone: the dump prints local times without an offset")
        }
    }

    func run() throws {
        let offset = try offsetRule()
        var log = ImportedLog()
        var skipped: [String: Int] = [:]
        let read: (String, inout ImportedLog, (Substring, inout ImportedLog) throws(ImportProblem) -> Void) throws -> Void = { path, log, body in
            let handle = { (problem: ImportProblem, number: Int) throws in
                guard skipInvalid else { throw CLIError("\(path):\(number): \(problem.message) (nothing was written)") }
                skipped[problem.reason, default: 0] += 1
            }
            try Self.lines(of: path, skipping: skipInvalid, { line, number in
                do { try body(line, &log) } catch let problem as ImportProblem { try handle(problem, number) }
            }, problem: handle)
        }
        switch from {
        case .usagestats:
            var reader = try wrap { () throws(ImportProblem) in try UsageStatsReader(user: user ?? "", offset: offset!) }
            for path in files { try read(path, &log) { line, log throws(ImportProblem) in try reader.read(line, into: &log) } }
        case .aware:
            var reader = try wrap { () throws(ImportProblem) in try AwareReader(user: user, offset: offset, zone: Self.zone) }
            for path in try awareOrder() {
                var header = true
                try read(path, &log) { line, log throws(ImportProblem) in
                    if header { header = false; try reader.begin(header: line) } else { try reader.read(line, into: &log) }
                }
            }
        }
        let rules = ForegroundRules(launchers: ForegroundRules.knownLaunchers.union(launcher),
                                    overlays: ForegroundRules.knownOverlays.union(overlay))
        let file = try AtomicFile(path: out)
        let events = log.canonical(rules: rules) { file.write($0 + "\n") }
        guard events > 0 else { throw CLIError("no usage events found in \(files.joined(separator: ", ")) (nothing was written)") }
        try file.commit()
        printError(summary(events: events, log: log, skipped: skipped))
    }

    func summary(events: Int, log: ImportedLog, skipped: [String: Int]) -> String {
        var text = "wrote \(events) events to \(out)"
        if !log.ignored.isEmpty { text += "\nleft out: " + log.ignored.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        if !skipped.isEmpty { text += "\nskipped (--skip-invalid): " + skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        return text
    }

    /// AWARE's timezone tables first, so every other row finds its device's offset.
    func awareOrder() throws -> [String] {
        var zones: [String] = [], others: [String] = []
        for path in files {
            if try Self.firstLine(of: path).map(AwareReader.table(header:)) == .timezone { zones.append(path) } else { others.append(path) }
        }
        return zones + others
    }

    func offsetRule() throws -> UTCOffsetRule? {
        if let text = utcOffset {
            guard let minutes = UTCOffsetRule.parseOffset(text) else { throw CLIError("--utc-offset '\(text)' is not an offset such as +01:00 or -05:30") }
            return .fixed(minutes: minutes)
        }
        if let name = timeZone {
            guard let rule = Self.zone(name) else { throw CLIError("--time-zone '\(name)' is not a known time zone such as Europe/Berlin") }
            return rule
        }
        return nil
    }

    /// An IANA zone from the system's zone database, with its daylight-saving changes.
    @Sendable static func zone(_ name: String) -> UTCOffsetRule? {
        guard name.utf8.count <= 64, name.contains("/") || name == "UTC", let tz = TimeZone(identifier: name) else { return nil }
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
    /// (the file ends in it, with no newline) is a problem of that line: `problem` decides whether
    /// it stops the import or is skipped. Without skipping, a long line stops the read at once.
    static func lines(of path: String, skipping: Bool, _ body: (Substring, Int) throws -> Void,
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
            if reader.lineUnterminated && !text.allSatisfy(\.isWhitespace) {
                return try problem(ImportProblem("cut-off last line", "the file ends inside this line (no newline after it): cut off?"), number)
            }
            try body(Substring(text), number)
        }) {}
    }
}
