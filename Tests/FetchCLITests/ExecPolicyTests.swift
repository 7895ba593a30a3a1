import FetchCore
import FetchExec
import Foundation
import Testing

/// `exec:` policies: a process speaking JSON Lines, under the engine's rules.
struct ExecPolicyTests {
    static let hourly = "exec:python3 " + Fetchsched.root.appendingPathComponent("examples/policies/hourly.py").path

    static func report(_ args: [String]) async throws -> [String: Any] {
        let r = try await Fetchsched.run(args + ["--format", "json", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        object["policy"] = nil
        return object
    }

    static func script(_ source: String) throws -> String {
        let path = Fetchsched.temp() + "/policy.py"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(source.utf8)))
        return "exec:python3 " + path
    }

    @Test(arguments: ["1", "2"])
    func theHourlyExampleGivesTheSameReportAsFixed60m(threads: String) async throws {
        let exec = try await Self.report(["replay", CommandTests.sample, "--policy", Self.hourly, "--threads", threads])
        let builtIn = try await Self.report(["replay", CommandTests.sample, "--policy", "fixed:60m"])
        #expect(NSDictionary(dictionary: exec).isEqual(to: builtIn))
    }

    @Test func aPolicyAskingForEverythingBreaksNoRuleAndItsRefusalsAreCounted() async throws {
        let greedy = try Self.script("""
            import json, sys
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "decide":
                    print(json.dumps({"fetch": [a["app"] for a in m["apps"]]}), flush=True)
            """)
        let scenario = Fetchsched.temp() + "/never.json"
        try #require(FileManager.default.createFile(atPath: scenario, contents: Data("""
            {"apps": {"com.example.news": {"interval": "never"}, "default": {"interval": "custom:20m"}}}
            """.utf8)))
        let r = try await Self.report(["replay", CommandTests.sample, "--policy", greedy, "--scenario", scenario])
        let violations = try #require(r["violations"] as? [String: Int])
        #expect(violations.values.allSatisfy { $0 == 0 })
        let refused = try #require(r["refused"] as? [String: Int])
        #expect(refused["interval", default: 0] > 0 && refused["energyBudget", default: 0] + refused["running", default: 0] > 0)
    }

    /// A line sent before any question is met either before the first question (a line nobody
    /// asked for) or as the answer to it (not an answer), as the process and the engine race:
    /// both are its reason, and either may be told.
    @Test(arguments: [
        ("print('hello', flush=True)\nimport sys\nsys.stdin.read()", ["the answer is not {\"fetch\"", "answered a line nobody asked for"]),
        ("import json, sys\nfor l in sys.stdin:\n    m = json.loads(l)\n"
            + "    if m['type'] == 'decide': print(json.dumps({'fetch': ['com.nowhere']}), flush=True)",
         ["asked to fetch 'com.nowhere', an app the log has not named"]),
        ("import json, sys\nfor l in sys.stdin:\n    m = json.loads(l)\n"
            + "    if m['type'] == 'decide': print(json.dumps({'wakeAt': m['t']}), flush=True)",
         ["is not after now"]),
        ("import sys\nsys.exit(3)", ["ended before answering a decision point (exited with status 3)"]),
        ("import sys\nsys.stdin.read()", ["no answer within 1 s"]),
    ])
    func aBadOrSilentProcessFailsTheRunWithItsReason(source: String, messages: [String]) async throws {
        let policy = try Self.script(source)
        let r = try await Fetchsched.run(["replay", CommandTests.sample, "--policy", policy, "--exec-timeout", "1", "--threads", "1", "--quiet"])
        #expect(r.status != 0)
        #expect(messages.contains { r.err.contains($0) }, "\(r.err)")
    }

    /// The engine meets a process that exited either as the end of its output or as a broken pipe when it writes the next
    /// question: both are told as the process's end, with its status. Here the process (exec'd, so no shell holds its input)
    /// closes its input after one answer, so the next question meets the broken pipe.
    @Test func aProcessThatClosesItsInputAndExitsIsSaidToHaveEndedWithItsStatus() async throws {
        let policy = try Self.script("""
            import json, os, sys, time
            while json.loads(sys.stdin.readline())["type"] != "decide": pass
            print("{}", flush=True)
            os.close(0)
            time.sleep(0.2)
            sys.exit(4)
            """).replacingOccurrences(of: "exec:", with: "exec:exec ")
        let r = try await Fetchsched.run(["replay", CommandTests.sample, "--policy", policy, "--exec-timeout", "5", "--quiet"])
        #expect(r.status != 0)
        #expect(r.err.contains("ended before answering a decision point (exited with status 4)"), "\(r.err)")
    }

    @Test func aProcessThatFailsAtTheEndFailsTheRun() async throws {
        let policy = try Self.script("""
            import json, sys
            for l in sys.stdin:
                if json.loads(l)["type"] == "decide": print("{}", flush=True)
            sys.exit(2)
            """)
        let r = try await Fetchsched.run(["replay", CommandTests.sample, "--policy", policy, "--quiet"])
        #expect(r.status != 0 && r.err.contains("exited with status 2"), "\(r.err)")
    }

    @Test func withoutALauncherNoNameStartsAProcess() {
        #expect(PolicySpec.parse("exec:touch /tmp/should-not-exist") == nil)
        #expect(PolicySpec.known.contains("exec:<command>"))
    }
}
