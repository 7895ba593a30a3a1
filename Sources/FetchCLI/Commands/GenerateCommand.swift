import ArgumentParser
import FetchBench
import FetchCore
import FetchStorage

/// `fetchsched generate`: synthetic logs with known habits.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic usage log (canonical CSV) of users with known habits.",
        discussion: "Morning checkers, hourly checkers, commuters, evening readers, weekend shifts, habits that move half-way, bursts of re-opens, screen_on before sessions, charging at night, Wi-Fi at home and work with cellular between. Same seed, same bytes.")

    @Option(help: "How many users.")
    var users: Int = 10

    @Option(help: "How many days, from Monday 2025-01-06.")
    var days: Int = 14

    @Option(help: "A seed for repeatable generation.")
    var seed: UInt64 = 1

    @Flag(help: "Add pushes from app servers: silent ones at news updates (with bursts over the hourly limit), mail syncs, and chat messages as alert pushes.")
    var pushes = false

    @Flag(help: "Add location events: one a minute after each move onto cellular (leaving home or work).")
    var location = false

    @Flag(help: ArgumentHelp("Add notifications: three in ten opens answer one of their app posted 1-15 minutes before; "
                             + "every app opened in a day posts up to three nobody answers."))
    var notifications = false

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var out: String?

    func validate() throws {
        guard users > 0, users <= 1_000_000 else { throw ValidationError("--users must be 1 to 1000000") }
        guard days > 0, days <= 3_650 else { throw ValidationError("--days must be 1 to 3650") }
    }

    func run() throws {
        var log = SyntheticLog(users: users, days: days, seed: seed, pushes: pushes, location: location, notifications: notifications)
        let file = try out.map { try AtomicFile(path: $0) }
        let write: (String) throws -> Void = { text in if let file { file.write(text) } else { try standardOutput(text) } }
        try write(CSVLineParser.header + "\n")
        for d in 0..<days {
            var chunk = ""
            for e in log.events(day: d) { chunk += e.csvLine; chunk += "\n" }
            try write(chunk)
        }
        try file?.commit()
    }
}
