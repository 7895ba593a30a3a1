import FetchCore
import Foundation

/// The process of an `exec:` policy: started once per run with `/bin/sh -c`, fed JSON lines
/// on its standard input, answering on its standard output; its standard error passes through.
///
/// Every read and write waits at most `timeout`: a process that hangs, or stops reading, fails
/// the run instead of freezing it. Guarded by its lock (workers share one process), hence
/// `@unchecked Sendable`.
final class ProcessPeer: PolicyPeer, @unchecked Sendable {
    let command: String
    private let lock = NSLock()
    private let process = Process()
    private let toChild: Int32
    private let fromChild: Int32
    private let timeoutMs: Int32
    private var outgoing: [UInt8] = []
    private var incoming: [UInt8] = []
    /// Reused for every read: an answer is read per decision point.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var failure: String?
    /// Decision points answered and events sent, for `--timing`.
    private(set) var answers = 0
    private(set) var told = 0
    /// Longest answer line read; a longer one fails the run.
    static let maxAnswerBytes = 1 << 20

    init(command: String, timeoutSeconds: Int) throws {
        signal(SIGPIPE, SIG_IGN)  // a process that exits early must not kill this one
        self.command = command
        timeoutMs = Int32(timeoutSeconds * 1000)
        let input = Pipe(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { throw CLIError("policy 'exec:\(command)': cannot start: \(error)") }
        toChild = input.fileHandleForWriting.fileDescriptor
        fromChild = output.fileHandleForReading.fileDescriptor
        _ = fcntl(toChild, F_SETFL, fcntl(toChild, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fromChild, F_SETFL, fcntl(fromChild, F_GETFL) | O_NONBLOCK)
        outgoing.reserveCapacity(1 << 16)
    }

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
        if process.isRunning { process.terminate() }
    }

    /// Ends the run: closes the process's input, waits for it to exit, and returns why the
    /// policy failed, if it did.
    func finish() -> String? {
        lock.lock(); defer { lock.unlock() }
        if failure == nil { flush() }
        close(toChild)
        var waited: Int32 = 0
        while process.isRunning && waited < timeoutMs { usleep(10_000); waited += 10 }
        if process.isRunning {
            failLocked("policy 'exec:\(command)': did not exit within \(timeoutMs / 1000) s of its input's end")
            process.waitUntilExit()
        }
        if failure == nil && process.terminationStatus != 0 {
            failure = "policy 'exec:\(command)': exited with status \(process.terminationStatus)"
        }
        return failure
    }

    private func flush() {
        var sent = 0
        while sent < outgoing.count {
            let n = outgoing.withUnsafeBytes { write(toChild, $0.baseAddress! + sent, $0.count - sent) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno != EAGAIN && errno != EINTR {
                return failLocked("policy 'exec:\(command)': stopped reading its input (\(String(cString: strerror(errno))))")
            }
            guard wait(for: toChild, events: Int16(POLLOUT)) else {
                return failLocked("policy 'exec:\(command)': read nothing for \(timeoutMs / 1000) s")
            }
        }
        outgoing.removeAll(keepingCapacity: true)
    }

    private func readLine() -> String? {
        while true {
            if let nl = incoming.firstIndex(of: 10) {
                let line = incoming[..<nl]
                incoming.removeSubrange(...nl)
                guard let text = String(validating: line, as: UTF8.self) else {
                    failLocked("policy 'exec:\(command)': an answer is not UTF-8"); return nil
                }
                return text
            }
            guard incoming.count <= Self.maxAnswerBytes else {
                failLocked("policy 'exec:\(command)': an answer longer than \(Self.maxAnswerBytes) bytes"); return nil
            }
            let n = chunk.withUnsafeMutableBytes { read(fromChild, $0.baseAddress!, $0.count) }
            if n > 0 { incoming.append(contentsOf: chunk[..<n]); continue }
            if n == 0 {
                failLocked("policy 'exec:\(command)': ended before answering a decision point"); return nil
            }
            if errno != EAGAIN && errno != EINTR {
                failLocked("policy 'exec:\(command)': \(String(cString: strerror(errno)))"); return nil
            }
            guard wait(for: fromChild, events: Int16(POLLIN)) else {
                failLocked("policy 'exec:\(command)': no answer within \(timeoutMs / 1000) s"); return nil
            }
        }
    }

    private func wait(for fd: Int32, events: Int16) -> Bool {
        var p = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let r = poll(&p, 1, timeoutMs)
            if r > 0 { return true }
            if r == 0 { return false }
            if errno != EINTR { return false }
        }
    }
}
