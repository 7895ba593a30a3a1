import Foundation
import Testing

/// Issue 34's `exec:` findings: a policy process that hangs, floods, answers out of step, leaves
/// children behind or ignores SIGTERM ends the run within its timeout, with its reason, and
/// nothing it started outlives the run.
struct ExecHardeningTests {
    /// A policy script (shell) that writes its shell's pid to `pidFile` first, then does `body`.
    static func policy(_ body: String, dir: String) throws -> (policy: String, pidFile: String) {
        let pidFile = dir + "/pid", script = dir + "/policy.sh"
        try #require(FileManager.default.createFile(atPath: script, contents: Data("echo $$ > \(pidFile)\n\(body)\n".utf8)))
        return ("exec:sh " + script, pidFile)
    }

    /// Whether a process runs (a zombie waiting for its reaper does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    static func pid(in file: String) throws -> Int32 {
        try #require(Int32(try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test(arguments: [
        ("sleep 300", "no answer within 2 s"),
        ("yes garbage", "one line per decision point"),
        // Written before the first question or while it is asked: which one a loaded machine decides.
        ("head -c 100000000 /dev/zero | tr '\\0' x", "one line per decision point|an answer longer than 1048576 bytes"),
        ("while read l; do case $l in *decide*) break;; esac; done; head -c 100000000 /dev/zero | tr '\\0' x", "an answer longer than 1048576 bytes"),
        ("cat /dev/urandom", "policy 'exec:"),
        ("trap '' TERM HUP INT; sleep 300", "no answer within 2 s"),
        ("while read l; do case $l in *decide*) break;; esac; done; while true; do printf x; sleep 0.5; done", "no answer within 2 s"),
        ("while read l; do case $l in *decide*) echo '{}'; echo '{}';; esac; done", "one line per decision point"),
    ])
    func aHostilePolicyEndsTheRunWithinItsTimeoutAndLeavesNothingRunning(body: String, message: String) async throws {
        let dir = Fetchsched.temp()
        let (policy, pidFile) = try Self.policy(body, dir: dir)
        let r = try await Fetchsched.run(["replay", CommandTests.sample, "--policy", policy, "--exec-timeout", "2", "--threads", "1", "--quiet"],
                                   limit: 60)
        #expect(r.status == 1, "\(r.err)")
        #expect(message.split(separator: "|").contains { r.err.contains($0) }, "\(r.err.prefix(300))")
        #expect(!Self.isRunning(try Self.pid(in: pidFile)), "the policy's shell outlived the run")
    }

    @Test func aBackgroundChildOfThePolicyIsKilledWhenTheRunEnds() async throws {
        let dir = Fetchsched.temp()
        let child = dir + "/child"
        let hourly = Fetchsched.root.appendingPathComponent("examples/policies/hourly.py").path
        let (policy, _) = try Self.policy("sleep 300 & echo $! > \(child)\nexec python3 \(hourly)", dir: dir)
        let r = try await Fetchsched.run(["replay", CommandTests.sample, "--policy", policy, "--exec-timeout", "2", "--quiet"], limit: 60)
        #expect(r.status == 0, "\(r.err)")
        #expect(!Self.isRunning(try Self.pid(in: child)), "the background child outlived the run")
    }

    @Test func aPolicyAskingForATimerEveryMillisecondStillFinishes() async throws {
        let dir = Fetchsched.temp()
        let script = dir + "/t1.py"
        try #require(FileManager.default.createFile(atPath: script, contents: Data("""
            import json, sys
            for l in sys.stdin:
                m = json.loads(l)
                if m["type"] == "decide":
                    print(json.dumps({"wakeAt": m["t"] + 1}), flush=True)
            """.utf8)))
        let r = try await Fetchsched.run(["replay", CommandTests.sample, "--policy", "exec:python3 " + script, "--quiet"], limit: 240)
        #expect(r.status == 0, "\(r.err)")
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func stoppingTheRunStopsItsPolicy(signal: Int32) throws {
        let dir = Fetchsched.temp()
        let ready = dir + "/ready"
        try #require(mkfifo(ready, 0o600) == 0)
        let (policy, pidFile) = try Self.policy("echo up > \(ready)\nsleep 300", dir: dir)
        let p = Process()
        p.executableURL = Fetchsched.binary
        p.arguments = ["replay", CommandTests.sample, "--policy", policy, "--exec-timeout", "600", "--trace", dir + "/trace.csv", "--quiet"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        // The policy says it is up through the FIFO; the wait for it is bounded.
        let fd = open(ready, O_RDONLY | O_NONBLOCK)
        defer { close(fd) }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let up = poll(&poller, 1, 30_000) == 1
        kill(p.processIdentifier, signal)
        let ended = done.wait(timeout: .now() + 30) == .success
        if !ended { kill(p.processIdentifier, SIGKILL); done.wait() }
        #expect(up && ended)
        #expect(p.terminationStatus == 128 + signal)
        #expect(!Self.isRunning(try Self.pid(in: pidFile)), "the policy outlived the run")
        // Nor does the trace's temporary file.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("trace.csv") }
        #expect(left.isEmpty, "\(left)")
    }
}
