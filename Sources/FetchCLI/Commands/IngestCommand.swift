import ArgumentParser
import FetchCore
import FetchStore
import Foundation

/// `fetchsched ingest`: logs into the SQLite store.
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store usage logs in a SQLite database; a row already stored is not stored again.",
        discussion: "The whole ingest is one transaction: a bad row (without --skip-invalid) leaves the store as it was. Afterwards the usage model of every user in the logs is learned again from all their stored events and stored.")

    @OptionGroup var files: LogFileOptions

    @Option(help: ArgumentHelp("The store; made when missing.", valueName: "file"))
    var db: String

    @Flag(help: "Print the time taken and rows per second on stderr.")
    var timing = false

    @Flag(help: "Store the events only; do not relearn the users' usage models.")
    var noLearn = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let store = try EventStore(path: db)
            var source = try LogSource(paths: files.logs, skipInvalid: files.skipInvalid)
            let stats = try store.ingest(&source)
            if let summary = source.skippedSummary { printError("skipped invalid rows: \(summary)") }
            print("ingested \(stats.read) events into \(db): \(stats.inserted) new, \(stats.duplicates) already stored")
            if stats.inserted > 0 && !noLearn {
                let learned = try store.learnModels(users: source.users.names)
                print("learned the usage models of \(learned) user\(learned == 1 ? "" : "s")")
            }
            if timing {
                let s = Runner.seconds(clock.now - started)
                printError("ingest took \(String(format: "%.2f", s)) s: \(Int(Double(stats.read) / s)) rows/s")
            }
        } catch let e as LogError {
            throw CLIError("\(e.description) (nothing was stored)")
        } catch let e as InputError {
            throw CLIError(e.description)
        }
    }
}
