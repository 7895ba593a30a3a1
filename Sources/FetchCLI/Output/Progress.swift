import FetchCore
import FetchStorage
import Foundation

/// A progress line on stderr (events, users, rate, ETA) for runs longer than two seconds, only
/// when stderr is a terminal. Wall-clock time lives here, in the command line, not in the core.
final class Progress {
    private let enabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var shown = false

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) != 0
        started = clock.now
    }

    /// - Parameter done: the share of the input read so far, when the source knows it.
    func update(events: Int, users: Int, done: Double?) {
        guard enabled else { return }
        let seconds = (clock.now - started).seconds
        guard seconds >= 2 else { return }
        let rate = Double(events) / seconds
        var line = "\r\(events) events, \(users) users, \(Int(rate)) events/s"
        if let done, done > 0.01 { line += ", ETA \(Int((seconds / done - seconds).rounded())) s" }
        StandardStreams.errorPart(line + "   ")
        shown = true
    }

    func finish() {
        if shown { StandardStreams.errorPart("\n") }
    }
}
