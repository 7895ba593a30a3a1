import ArgumentParser
import FetchCore
import FetchStorage
import Foundation

/// `fetchsched ingest`: logs into the store (SQLite, or PostgreSQL by URL).
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store usage logs in a SQLite or PostgreSQL store; a row already stored is not stored again.",
        discussion: "The whole ingest is one transaction: a bad row (without --skip-invalid) leaves the store as it was. In the same transaction, the usage model of every user in the logs is learned again from all their stored events and stored.")

    @OptionGroup var files: LogFileOptions

    @Option(help: ArgumentHelp(StoreLocation.help + " A SQLite file is made when missing.", valueName: "store"))
    var db: String

    @Flag(help: "Print the time taken and rows per second on stderr.")
    var timing = false

    @Flag(help: "Store the events only; do not relearn the users' usage models.")
    var noLearn = false

    func run() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        if !StoreLocation.isPostgres(db) { try AtomicFile.refuse(outputs: [db], over: files.logs) }
        do {
            var source = try LogSource(paths: files.logs, skipInvalid: files.skipInvalid)
            let (stats, shown) = try await StoreLocation.read(db, writer: true) { store in
                (try await store.ingest(&source, learn: !noLearn), store.location)
            }
            if let summary = source.skippedSummary { printError("skipped invalid rows: \(summary)") }
            try printLine("ingested \(stats.read) events into \(shown): \(stats.inserted) new, \(stats.duplicates) already stored")
            if stats.inserted > 0 && !noLearn {
                try printLine("learned the usage models of \(stats.learned) user\(stats.learned == 1 ? "" : "s")")
            }
            if timing {
                let s = (clock.now - started).seconds
                printError("ingest took \(String(format: "%.2f", s)) s: \(Int(Double(stats.read) / s)) rows/s")
            }
        } catch let e as LogError {
            throw CLIError("\(e.description) (nothing was stored)")
        } catch let e as InputError {
            throw CLIError(e.description)
        }
    }
}
