import Foundation
import Testing

/// Issue 81's lower findings: what `--help` and `--version` print is checked as every output is,
/// `merge --help` lists only what it takes, and `--apps` naming no app of the logs says so.
struct ConventionTests {
    @Test(arguments: [["--help"], ["--version"], ["bench", "--help"]])
    func helpAndVersionThatCannotBeWrittenExitNonZero(args: [String]) async throws {
        let r = try await EdgeOutputTests.run(args, redirect: "> /dev/full")
        #expect(r.status == 1 && r.err.contains("cannot write standard output"), "\(r.err)")
        let ok = try await Fetchsched.run(args)
        #expect(ok.status == 0 && !ok.out.isEmpty)
    }

    @Test func mergesHelpListsNeitherPerAppNorApps() async throws {
        let r = try await Fetchsched.run(["merge", "--help"])
        #expect(r.status == 0 && r.out.contains("--per <policy|user|day>") && !r.out.contains("--apps"), "\(r.out)")
        let refused = try await Fetchsched.run(["merge", "x.json", "--per", "app"])
        #expect(refused.status != 0 && refused.err.contains("a shard report does not keep"), "\(refused.err)")
    }

    @Test func appsNamingNoAppOfTheLogsIsAnErrorAndAMissingOneIsSaid() async throws {
        let none = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "ios", "--per", "app", "--apps", "nope"])
        #expect(none.status == 1 && none.err.contains("no app of the logs is named 'nope'") && none.out.isEmpty, "\(none.err)")
        let one = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "ios", "--per", "app", "--apps", "nope,com.example.news"])
        #expect(one.status == 0 && one.err.contains("the logs have no open of 'nope'") && one.out.contains("com.example.news"), "\(one.err)")
    }

    /// Under an address-space limit too small for the runtime's threads, a run stops at once with
    /// a message, where it hung at 0% CPU (libdispatch retrying each thread once a second).
    @Test(arguments: [["check", CommandTests.sample], ["bench", CommandTests.sample, "--policies", "none"], ["import", "--help"]])
    func aTooSmallAddressSpaceIsAClearErrorNotAHang(args: [String]) async throws {
        let quoted = ([Fetchsched.binary.path] + args).map { "'\($0)'" }.joined(separator: " ")
        // 150,000 KiB: room to load the libraries of a debug build, too little for the runtime's threads.
        let r = try await Fetchsched.shell("ulimit -v 150000 && exec \(quoted)", limit: 60)
        #expect(r.status == 1 && r.err.contains("too little to start") && r.err.contains("ulimit -v 262144"), "\(r.status) \(r.err)")
    }

    /// Too few open files is a clear error (a hard limit below the run's need), or is raised to
    /// the need (a soft limit below it), where an import of a phone's database crashed.
    @Test func tooFewOpenFilesIsAClearErrorOrIsRaised() async throws {
        let args = [Fetchsched.binary.path, "import", "--from", "wellbeing", "--user", "s", "--time-zone", "UTC", WellbeingImportTests.fixture,
                    "--out", Fetchsched.temp() + "/o.csv"].map { "'\($0)'" }.joined(separator: " ")
        let hard = try await Fetchsched.shell("ulimit -n 5 && exec \(args)", limit: 60)
        #expect(hard.status == 1 && hard.err.contains("too many open files") && hard.err.contains("raise ulimit -n"), "\(hard.status) \(hard.err)")
        let soft = try await Fetchsched.shell("ulimit -Sn 5 && exec \(args)", limit: 60)
        #expect(soft.status == 0, "\(soft.status) \(soft.err)")
    }
}

/// `serve`'s shutdown is bounded: a plan whose client left (a user with 20,000 apps under the
/// costliest policy, which learns from every weighed app at every open) does not keep the process
/// after SIGTERM past its grace.
struct ShutdownBoundTests {
    @Test func aStopSignalEndsTheServiceWhileAnAbandonedPlanStillComputes() async throws {
        let dir = Fetchsched.temp()
        var csv = "timestamp,user,app,event,value\n"
        for i in 0..<20_000 { csv += "\(1_736_150_400 + 20 * i),u,com.app\(i),open,\n" }
        try csv.write(toFile: dir + "/many.csv", atomically: true, encoding: .utf8)
        let ingest = try await Fetchsched.run(["ingest", dir + "/many.csv", "--db", dir + "/s.sqlite"])
        #expect(ingest.status == 0, "\(ingest.err)")
        let binary = Fetchsched.binary.path
        // The plan is asked and left after 2 s; the stop signal follows; the server must be gone by the shell's bound.
        let r = try await Fetchsched.shell("""
            '\(binary)' serve --db '\(dir)/s.sqlite' --port 18291 --policy ev-learned 2>'\(dir)/log' &
            pid=$!; n=0
            until curl -sf localhost:18291/health >/dev/null || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.1; done
            curl -s --max-time 2 localhost:18291/v1/users/u/apps/com.app1/plan >/dev/null
            kill -TERM $pid; wait $pid; echo "exit $?"
            """, limit: 60)
        #expect(r.status == 0 && r.out.contains("exit "), "\(r.status) \(r.out) \(r.err)")
        let log = (try? String(contentsOfFile: dir + "/log", encoding: .utf8)) ?? ""
        // The plan was still running when the grace ended: the bound, not the plan's end, stopped the process.
        #expect(log.contains("exiting without them"), "\(log.suffix(400))")
    }
}

