import FetchCore
import FetchExec
import FetchStorage
import Foundation

/// The process of an `exec:` policy: started once per run with `/bin/sh -c` in a process group
/// of its own, fed JSON lines on its standard input, answering on its standard output; its
/// standard error passes through.
///
/// Every read and write waits at most `timeout`: a process that hangs, or stops reading, fails
/// the run instead of freezing it, and a failed policy's whole group is killed at once. Each
/// decision point takes exactly one line: a line more is a failure, not the next answer. Guarded
/// by its lock (workers share one process), hence `@unchecked Sendable`.
final class ProcessPeer: PolicyPeer, @unchecked Sendable {
    let command: String
    private let lock = NSLock()
    private let child: ChildProcess
    private let timeoutMs: Int32
    private var outgoing: [UInt8] = []
    private var incoming: [UInt8] = []
    /// Reused for every read: an answer is read per decision point.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var failure: String?
    private var exit: ChildProcess.Exit?
    /// Decision points answered and events sent, for `--timing`.
    private(set) var answers = 0
    private(set) var told = 0
    /// Longest answer line read; a longer one fails the run.
    static let maxAnswerBytes = 1 << 20

    init(command: String, timeoutSeconds: Int) throws {
        self.command = command
        timeoutMs = Int32(clamping: timeoutSeconds * 1000)
        child = try ChildProcess(shellCommand: command)
        outgoing.reserveCapacity(1 << 16)
    }

    private var label: String { "policy 'exec:\(InputBounds.printable(command))'" }

    func tell(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        guard failure == nil else { return }
        outgoing.append(contentsOf: line.utf8)
        outgoing.append(10)
        told += 1
        if outgoing.count >= 1 << 16 { flush() }
    }

    func ask(_ line: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        guard failure == nil else { return nil }
        if incoming.isEmpty { readAvailable() }
        guard incoming.isEmpty else {
            failOutOfStep("answered a line nobody asked for")
            return nil
        }
        outgoing.append(contentsOf: line.utf8)
        outgoing.append(10)
        flush()
        guard failure == nil, let answer = readLine() else { return nil }
        answers += 1
        return answer
    }

    func fail(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        failLocked(message)
    }

    private func failLocked(_ message: String) {
        guard failure == nil else { return }
        failure = message
        child.killGroup()
    }

    /// Fails the run for a process out of step with the protocol, showing what it sent.
    private func failOutOfStep(_ what: String) {
        let shown = InputBounds.printable(String(decoding: incoming.prefix(200), as: UTF8.self))
        failLocked("\(label): \(what) (one line per decision point): \(shown)")
    }

    /// Ends the run: closes the process's input, waits at most the timeout for it to exit, kills
    /// its group (anything it left running), and returns why the policy failed, if it did.
    func finish() -> String? {
        lock.lock(); defer { lock.unlock() }
        if failure == nil { flush() }
        close(child.toChild)
        if failure == nil { readAvailable() }
        if failure == nil && !incoming.isEmpty {
            failOutOfStep("answered a line nobody asked for")
        }
        let exited = waitForExit(ms: failure == nil ? timeoutMs : 1000)
        if !exited && failure == nil {
            failLocked("\(label): did not exit within \(timeoutMs / 1000) s of its input's end")
        }
        child.killGroup()
        if !exited { exit = waitForExit(ms: 5000) ? exit : nil }
        child.release()
        RunStop.shared.endOrphans()
        close(child.fromChild)
        if failure == nil, let exit, exit != .status(0), exit != .unknown {
            switch exit {
            case .status(let s): failure = "\(label): exited with status \(s)"
            case .signal(let s): failure = "\(label): ended by signal \(s)"
            case .unknown: break
            }
        }
        return failure
    }

    /// Waits for the child to exit, at most `ms`, polling its exit every 10 ms.
    private func waitForExit(ms: Int32) -> Bool {
        if exit != nil { return true }
        var waited: Int32 = 0
        while true {
            if let e = child.reap() { exit = e; return true }
            if waited >= ms { return false }
            usleep(10_000)
            waited += 10
        }
    }

    private func flush() {
        let deadline = Self.monotonicMs() + Int64(timeoutMs)
        var sent = 0
        while sent < outgoing.count {
            let n = outgoing.withUnsafeBytes { write(child.toChild, $0.baseAddress! + sent, $0.count - sent) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno != EAGAIN && errno != EINTR {
                let reason = String(cString: strerror(errno))
                // A process that exited closed its input too: which pipe the engine meets first is a race, so say it ended.
                if errno == EPIPE, waitForExit(ms: 1000) { return failLocked(endedEarly()) }
                return failLocked("\(label): stopped reading its input (\(reason))")
            }
            guard wait(for: child.toChild, events: Int16(POLLOUT), until: deadline) else {
                return failLocked("\(label): read nothing for \(timeoutMs / 1000) s")
            }
        }
        outgoing.removeAll(keepingCapacity: true)
    }

    /// Reads what the process has already written, without waiting.
    private func readAvailable() {
        while incoming.count <= Self.maxAnswerBytes {
            let n = chunk.withUnsafeMutableBytes { read(child.fromChild, $0.baseAddress!, $0.count) }
            guard n > 0 else { return }
            incoming.append(contentsOf: chunk[..<n])
        }
    }

    /// The next answer line; the whole line must come within the timeout, however it trickles in.
    private func readLine() -> String? {
        let deadline = Self.monotonicMs() + Int64(timeoutMs)
        while true {
            if let nl = incoming.firstIndex(of: 10) {
                let line = incoming[..<nl]
                guard line.count <= Self.maxAnswerBytes else { break }
                guard let text = String(validating: line, as: UTF8.self) else {
                    failLocked("\(label): an answer is not UTF-8"); return nil
                }
                incoming.removeSubrange(...nl)
                guard incoming.isEmpty else {
                    failOutOfStep("answered two lines to one decision point")
                    return nil
                }
                return text
            }
            guard incoming.count <= Self.maxAnswerBytes else { break }
            let n = chunk.withUnsafeMutableBytes { read(child.fromChild, $0.baseAddress!, $0.count) }
            if n > 0 { incoming.append(contentsOf: chunk[..<n]); continue }
            if n == 0 {
                _ = waitForExit(ms: 1000)
                failLocked(endedEarly()); return nil
            }
            if errno != EAGAIN && errno != EINTR {
                failLocked("\(label): \(String(cString: strerror(errno)))"); return nil
            }
            guard wait(for: child.fromChild, events: Int16(POLLIN), until: deadline) else {
                failLocked("\(label): no answer within \(timeoutMs / 1000) s"); return nil
            }
        }
        failLocked("\(label): an answer longer than \(Self.maxAnswerBytes) bytes")
        return nil
    }

    /// Why the run fails when the process ended while a decision point was still to come, with its exit if known.
    private func endedEarly() -> String {
        switch exit {
        case .status(let s)?: "\(label): ended before answering a decision point (exited with status \(s))"
        case .signal(let s)?: "\(label): ended before answering a decision point (ended by signal \(s))"
        case .unknown?, nil: "\(label): ended before answering a decision point"
        }
    }

    /// Waits until `fd` is ready or the deadline passes.
    private func wait(for fd: Int32, events: Int16, until deadline: Int64) -> Bool {
        var p = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let left = deadline - Self.monotonicMs()
            if left <= 0 { return false }
            let r = poll(&p, 1, Int32(clamping: left))
            if r > 0 { return true }
            if r < 0 && errno != EINTR { return false }
        }
    }

    /// The monotonic clock in milliseconds: the run's timeouts are the command line's, not the engine's.
    private static func monotonicMs() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1000 + Int64(t.tv_nsec) / 1_000_000
    }
}
