import CFetchShims
import FetchStorage
import Foundation
import Synchronization

/// What a run that is told to stop (SIGINT, SIGTERM, SIGHUP) must end first: the process
/// groups of its `exec:` policies, killed, so that stopping the run stops its policies too, and
/// the temporary files of its outputs not yet in place (``AtomicFile``) and its private
/// directories (a phone database's copy), removed, so that a stopped run leaves nothing behind.
///
/// The handlers are installed with the first child or output file: a command that starts
/// neither keeps the default actions. After killing the groups the run exits with 128 + the signal's
/// number, as a shell reports a process the signal ended (libdispatch reads the signal from a
/// signalfd, so raising it again would only come back to this handler).
///
/// A stop signal reaches the run by one of two ways, and both lead here. libdispatch's signal
/// source reads it when every thread blocks it (its own threads do). A thread that does not
/// block it takes it itself: the signal's action then runs on that thread, and were it
/// "ignore" (as libdispatch's sources usually want) the signal would be lost there, and the
/// run would go on until its policy's timeout. So the action is a handler that only writes
/// the signal's number to a pipe (what a handler may safely do), which the queue reads.
final class RunStop: Sendable {
    static let shared = RunStop()
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let groups = Mutex<Set<pid_t>>([])
    private let partials = Mutex<Set<String>>([])
    /// Private directories of the run (a phone database's copy), removed with what is in them.
    private let scratch = Mutex<Set<String>>([])
    private let sources = Mutex<[any DispatchSourceSignal]>([])
    private let queue = DispatchQueue(label: "fetchsched.child-groups")

    /// Unblocks the stop signals on this thread (the main one, at start), for the threads made
    /// after it too: a run started with them blocked (a parent's mask is inherited across exec;
    /// a test runner's worker thread, a supervisor) would otherwise never see them, and could not
    /// be stopped but by SIGKILL.
    static func acceptStopSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in stopSignals { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Runs `start` (which returns the new child's pid, or a non-positive value) with the
    /// handlers installed, and records the group.
    func whileStarting(_ start: () -> pid_t) -> pid_t {
        signal(SIGPIPE, SIG_IGN)  // a policy that exits early must not kill the run
        // A grandchild that leaves the group (`setsid`, a daemon's double fork) is handed to this
        // run when its parent ends, not to init: ``endOrphans()`` can then end it.
        _ = fetch_shims_become_subreaper()
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

    /// Kills and reaps every child of this run that is not a live policy's group leader: the
    /// processes policies left behind outside their groups, handed to this run as their
    /// subreaper. Repeated while new ones arrive (a killed orphan's own children come next),
    /// for at most `ms`.
    func endOrphans(ms: Int = 5000) {
        groups.withLock { Self.endOrphans(except: $0, ms: ms) }
    }

    private static func endOrphans(except leaders: Set<pid_t>, ms: Int) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(ms) * 1_000_000
        let me = "\(getpid())"
        repeat {
            let orphans = processes().filter { $0.parent == me }.compactMap { pid_t($0.pid) }.filter { !leaders.contains($0) }
            if orphans.isEmpty { return }
            for pid in orphans {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)
            }
            usleep(1000)
        } while DispatchTime.now().uptimeNanoseconds < deadline
    }

    /// Each process /proc lists: its pid, state, parent and group (none where there is no /proc).
    private static func processes() -> [(pid: Substring, state: Substring, parent: Substring, group: Substring)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return names.filter { $0.first?.isNumber == true }.compactMap { name in
            guard let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the name: state, parent, group.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 ? (Substring(name), fields[0], fields[1], fields[2]) : nil
        }
    }

    /// Records `path`, an output's temporary file, to be removed should the run be stopped
    /// before ``kept(_:)``.
    func removingOnStop(_ path: String) {
        installHandlers()
        _ = partials.withLock { $0.insert(path) }
    }

    /// Forgets `path`: renamed into place, or removed by its writer.
    func kept(_ path: String) {
        _ = partials.withLock { $0.remove(path) }
    }

    /// Makes a private directory in `parent` (`mkdtemp`, mode 0700) that a stop signal removes
    /// with everything in it, until ``forget(scratch:)``: the handlers are in place before it exists.
    func scratchDirectory(in parent: String, label: String) -> String? {
        installHandlers()
        var template = Array(((parent.hasSuffix("/") ? parent : parent + "/") + "fetchsched-\(label).XXXXXX").utf8CString)
        return scratch.withLock { set in
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
            let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            set.insert(path)
            return path
        }
    }

    /// Removes a directory of ``scratchDirectory(in:label:)`` and what is in it, and forgets it.
    func forget(scratch path: String) {
        scratch.withLock { set in
            try? FileManager.default.removeItem(atPath: path)
            set.remove(path)
        }
    }

    private func installHandlers() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)  // a handler never waits
                let reader = ends[0]
                let source = DispatchSource.makeReadSource(fileDescriptor: reader, queue: queue)
                source.setEventHandler { [self] in
                    var number: UInt8 = 0
                    if read(reader, &number, 1) == 1 { stop(by: Int32(number)) }
                }
                source.resume()
                stopSignalPipeReader = source
                stopSignalPipe = ends[1]
            }
            for sig in Self.stopSignals {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = stopSignalHandler
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(sig, &action, nil)
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
            // SIGKILL lands when a process is next scheduled, which on a busy machine can be
            // after the run has exited: wait (bounded) for each whole group to be gone first.
            for pid in set { Self.awaitGroupGone(pid, ms: 5000) }
            Self.endOrphans(except: [], ms: 5000)
        }
        partials.withLock { paths in for path in paths { unlink(path) } }
        scratch.withLock { paths in for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        _exit(128 + sig)
    }

    /// Reaps the killed group's leader (this run's child) and waits until no process of the
    /// group still runs (the shell may have started the policy as a child of its own), for at
    /// most `ms`. A killed process waits as a zombie until its parent reaps it, which for an
    /// orphan is init, on its own time: where /proc lists processes, zombies do not count;
    /// elsewhere only the leader is waited for.
    private static func awaitGroupGone(_ pid: pid_t, ms: Int) {
        var status: Int32 = 0
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(ms) * 1_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let reaped = waitpid(pid, &status, WNOHANG)
            let leaderGone = reaped == pid || (reaped < 0 && errno == ECHILD)
            if leaderGone && !groupRuns(pid) { return }
            usleep(1000)
        }
    }

    /// Whether a process of group `group` other than a zombie is listed in /proc (false where
    /// there is no /proc).
    private static func groupRuns(_ group: pid_t) -> Bool {
        processes().contains { $0.group == "\(group)" && $0.state != "Z" && $0.state != "X" }
    }
}

/// The write end of the pipe the stop signals' handler writes to; set once, before the handler
/// is installed, and read by it only.
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1
/// The pipe's reader, kept for the run's life; set once, under ``RunStop``' lock.
nonisolated(unsafe) private var stopSignalPipeReader: (any DispatchSourceRead)?

/// The stop signals' action on a thread that does not block them: the signal's number into the
/// pipe (`write` is safe in a handler), for ``RunStop`` to act on off the signal's thread.
private let stopSignalHandler: @convention(c) (Int32) -> Void = { sig in
    var number = UInt8(truncatingIfNeeded: sig)
    _ = write(stopSignalPipe, &number, 1)
}
