import FetchStorage
import Foundation
import Synchronization

/// The process groups of the run's `exec:` policies, killed when the run is told to stop
/// (SIGINT, SIGTERM, SIGHUP), so that stopping the run stops its policies too.
///
/// The handlers are installed with the first child: a command that starts no policy process
/// keeps the default actions. After killing the groups the run exits with 128 + the signal's
/// number, as a shell reports a process the signal ended (libdispatch reads the signal from a
/// signalfd, so raising it again would only come back to this handler).
final class ChildGroups: Sendable {
    static let shared = ChildGroups()
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let groups = Mutex<Set<pid_t>>([])
    private let sources = Mutex<[any DispatchSourceSignal]>([])
    private let queue = DispatchQueue(label: "fetchsched.child-groups")

    /// Runs `start` (which returns the new child's pid, or a non-positive value) with the
    /// handlers installed, and records the group.
    func whileStarting(_ start: () -> pid_t) -> pid_t {
        installHandlers()
        return groups.withLock { set in
            let pid = start()
            if pid > 0 { set.insert(pid) }
            return pid
        }
    }

    func remove(_ pid: pid_t) {
        _ = groups.withLock { $0.remove(pid) }
    }

    private func installHandlers() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            signal(SIGPIPE, SIG_IGN)  // a policy that exits early must not kill the run
            for sig in Self.stopSignals {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler { [self] in stop(by: sig) }
                source.resume()
                sources.append(source)
            }
        }
    }

    private func stop(by sig: Int32) {
        groups.withLock { set in
            for pid in set { kill(-pid, SIGKILL) }
            // SIGKILL lands when the child is next scheduled, which on a busy machine can be
            // after the run has exited: wait (bounded) for each child to die first.
            for pid in set { Self.awaitDeath(of: pid, ms: 5000) }
        }
        _exit(128 + sig)
    }

    /// Reaps a killed child, polling every millisecond for at most `ms`; a child reaped
    /// elsewhere (ECHILD) is dead already.
    private static func awaitDeath(of pid: pid_t, ms: Int) {
        var status: Int32 = 0
        for _ in 0..<ms {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) { return }
            usleep(1000)
        }
    }
}
