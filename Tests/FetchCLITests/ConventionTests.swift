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
}
