import FetchBench
import FetchCore
import Foundation
import Testing

/// `predict` and planning under another policy, through the binary.
struct PredictCommandTests {
    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func predictScoresTheThreeModelsPerKindAndWritesAReliabilityChart() async throws {
        let report = Fetchsched.temp() + "/predict.html"
        let r = try await Fetchsched.run(["predict", CommandTests.sample, "--scenario", CommandTests.scenario, "--report", report])
        #expect(r.status == 0, "\(r.err)")
        for model in PolicyRegistry.builtIn.scoredModels.map(\.name) {
            #expect(r.out.contains("\n\(model) "), "\(model)")
        }
        for kind in ["all", "tick", "unlock", "open"] { #expect(r.out.contains(" \(kind) "), "\(kind)") }
        // Per user too, with the user on whom each model falls furthest below the counting baseline named.
        #expect(r.out.contains("Worst user, average precision against the counting baseline's: habits "), "\(r.out)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("<svg") && html.contains("Reliability") && html.contains("learned"))
        let again = try await Fetchsched.run(["predict", CommandTests.sample, "--scenario", CommandTests.scenario])
        #expect(again.out == r.out)
        // From the other users' prior only the learned model's scores move, the same on every run.
        let others = try await Fetchsched.run(["predict", CommandTests.sample, "--scenario", CommandTests.scenario, "--prior-from-other-users"])
        #expect(others.status == 0, "\(others.err)")
        func rows(_ out: String, _ model: String) -> [Substring] { out.split(separator: "\n").filter { $0.hasPrefix("\(model) ") } }
        #expect(rows(others.out, "habits") == rows(r.out, "habits") && rows(others.out, "counts") == rows(r.out, "counts"))
        #expect(!rows(r.out, "appm").isEmpty && rows(others.out, "appm") == rows(r.out, "appm"))
        #expect(!rows(others.out, "learned").isEmpty && rows(others.out, "learned") != rows(r.out, "learned"))
        let othersAgain = try await Fetchsched.run(["predict", CommandTests.sample, "--scenario", CommandTests.scenario, "--prior-from-other-users"])
        #expect(othersAgain.out == others.out)
    }

    @Test func predictAsJSONGivesEveryScoreAndLeaveOneOutAddsAModelPerSignal() async throws {
        let r = try await Fetchsched.run(["predict", CommandTests.sample, "--format", "json", "--leave-one-out"])
        #expect(r.status == 0, "\(r.err)")
        let top = try #require(try json(r.out) as? [String: Any])
        let models = try #require(top["models"] as? [String])
        #expect(models.prefix(4) == ["habits", "counts", "learned", "appm"] && models.count == 4 + OpenFeatures.Group.allCases.count - 1)
        let overall = try #require(top["overall"] as? [String: [String: Any]])
        let learned = try #require(overall["learned"])
        for key in ["examples", "positives", "logLoss", "brier", "averagePrecision", "calibration"] { #expect(learned[key] != nil, "\(key)") }
        let users = try #require(top["perUser"] as? [[String: Any]])
        #expect(!users.isEmpty)
    }

    @Test func predictStopsAtABadRowWithItsFileAndLine() async throws {
        let log = Fetchsched.temp() + "/bad.csv"
        try "timestamp,user,app,event,value\n2025-01-06T07:00:00Z,u,a,open,\n2025-01-06T07:01:00Z,u,a,opened,\n"
            .write(toFile: log, atomically: true, encoding: .utf8)
        let r = try await Fetchsched.run(["predict", log])
        #expect(r.status != 0 && r.err.contains("bad.csv:3"), "\(r.err)")
        #expect(try await Fetchsched.run(["predict", CommandTests.sample, "--format", "csv"]).status != 0)
    }

    @Test func nextPlansUnderTheCountingBaselineAndNextAndServeRefuseAPolicyThatCannotPlan() async throws {
        let db = Fetchsched.temp() + "/events.sqlite"
        #expect(try await Fetchsched.run(["ingest", CommandTests.sample, "--db", db]).status == 0)
        let args = ["next", "--db", db, "--user", "user-0006", "--app", "com.example.reader", "--at", "2025-01-12T20:00:00Z", "--explain"]
        let counts = try await Fetchsched.run(args + ["--policy", "counts:0.1"])
        #expect(counts.status == 0, "\(counts.err)")
        #expect(counts.out.contains("(counted)") || counts.out.contains("no fetch needed"), "\(counts.out)")
        let adaptive = try await Fetchsched.run(args)
        #expect(adaptive.status == 0 && adaptive.out != counts.out)
        let fixed = try await Fetchsched.run(args + ["--policy", "fixed:15m"])
        #expect(fixed.status != 0 && fixed.err.contains("not a policy a plan can be made under"), "\(fixed.err)")
        // The service is refused the same policy before it opens the store or listens.
        let serve = try await Fetchsched.run(["serve", "--db", db, "--port", "18124", "--policy", "fixed:15m"], limit: 60)
        #expect(serve.status != 0 && serve.err.contains("not a policy a plan can be made under"), "\(serve.err)")
    }
}
