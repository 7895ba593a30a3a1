import ArgumentParser
import FetchCore
import FetchStorage
import Foundation

/// `fetchsched check`: reads logs as replay would, and reports what they hold.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check usage logs and count their events, users and apps, without replaying them.",
        discussion: "Stops at the first bad row with file and line, like every other command; with --skip-invalid, counts the bad rows by reason.")

    @OptionGroup var files: LogFileOptions

    @Flag(help: "Print the time taken and rows per second on stderr.")
    var timing = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        var counts = [Int](repeating: 0, count: EventKind.allCases.count)
        var first = Int64.max, last = Int64.min
        let source: LogSource
        do {
            var s = try LogSource(paths: files.logs, skipInvalid: files.skipInvalid)
            while let e = try s.next() {
                counts[Int(e.kind.rawValue)] += 1
                first = min(first, e.time.millis)
                last = max(last, e.time.millis)
            }
            source = s
        } catch let e as LogError {
            throw CLIError(e.description)
        } catch let e as InputError {
            throw CLIError(e.description)
        }
        let events = counts.reduce(0, +)
        try printLine("\(events) events, \(source.users.count) users, \(source.apps.count) apps")
        if events > 0 {
            try printLine("from \(LocalTime.isoText(first, offsetMinutes: 0)) to \(LocalTime.isoText(last, offsetMinutes: 0))")
            let kinds = EventKind.allCases.filter { counts[Int($0.rawValue)] > 0 }
            try printLine(kinds.map { "\($0.logName) \(counts[Int($0.rawValue)])" }.joined(separator: ", "))
        }
        if let summary = source.skippedSummary { try printLine("skipped invalid rows: \(summary)") }
        if timing {
            let s = (clock.now - started).seconds
            printError("read \(source.rows) rows in \(String(format: "%.2f", s)) s: \(Int(Double(source.rows) / s)) rows/s")
        }
    }
}
