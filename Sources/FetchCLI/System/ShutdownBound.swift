import Dispatch
import Foundation
import Logging

/// A bound on `serve`'s graceful shutdown: once SIGTERM or SIGINT has come, requests under way
/// have ``grace`` to end, and the process then exits whatever still runs.
///
/// The server stops listening at the signal and waits for its requests; a plan whose client left
/// computes on, not cancellable between its steps, and a user with many apps made that minutes.
/// Exiting then loses nothing acknowledged: each write is committed before its response, and one
/// not answered yet was never acknowledged.
final class ShutdownBound {
    /// How long requests under way may run after a stop signal.
    static let grace: DispatchTimeInterval = .seconds(10)

    private let sources: [any DispatchSourceSignal]

    private init(sources: [any DispatchSourceSignal]) { self.sources = sources }

    /// Watches for the stop signals beside the server's own handling of them (each signal source
    /// of a process is told); the first one starts the bound.
    static func start(logger: Logger) -> ShutdownBound {
        let queue = DispatchQueue(label: "fetchsched.shutdown-bound")
        let sources = [SIGTERM, SIGINT].map { sig in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                queue.asyncAfter(deadline: .now() + grace) {
                    logger.warning("requests still under way 10 s after the stop signal: exiting without them")
                    _exit(128 + sig)
                }
            }
            source.resume()
            return source
        }
        return ShutdownBound(sources: sources)
    }

    /// The server has ended: no bound is needed any more.
    func cancel() {
        for source in sources { source.cancel() }
    }
}
