import ArgumentParser
import FetchBench
import FetchCore
import FetchReport
import FetchStorage

/// `fetchsched predict`: the prediction benchmark, apart from replay (``PredictionBench``).
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Score each model's chance of a stale open soon, at every moment a scheduler could fetch, against what happened.",
        discussion: """
            Moments: every tick, unlock (screen_on), open and plug-in. For each app the user has opened, each model's chance \
            that it is opened within the content window and would find its content stale with no background fetch. Models \
            learn online and are scored forward only. Reports log-loss, Brier score, average precision and calibration per \
            model, per moment kind and per user.
            """)

    @OptionGroup var files: LogFileOptions
    @OptionGroup var scenarioOptions: ScenarioOptions

    @Flag(help: "Also score the learned model without each of its signals in turn: what each signal adds.")
    var leaveOneOut = false

    @Option(help: ArgumentHelp("Also write a self-contained HTML report with a reliability chart to this file.", valueName: "file.html"))
    var report: String?

    @Flag(help: .hidden)
    var fitPrior = false

    @Flag(help: .hidden)
    var policyHorizons = false

    @Flag(help: "Start each user's learned model from a prior fitted on the other users of the logs (in up to 10 folds of users; leave-one-out with 10 users or fewer) instead of the shipped one.")
    var priorFromOtherUsers = false

    /// What `predict` prints: no CSV, whose rows would have no one shape.
    enum Format: String, ExpressibleByArgument, CaseIterable { case table, markdown, json }

    @Option(help: "Output: table, markdown or json.")
    var format: Format = .table

    func run() throws {
        try AtomicFile.refuse(outputs: [report], over: files.logs + [scenarioOptions.scenario])
        let scenario = try scenarioOptions.loadScenario()
        let window = Self.window(of: scenario)
        var bench = PredictionBench(window: window, tick: scenario.tick, leaveOneOut: leaveOneOut)
        let (byUser, users) = try Self.readUsers(files.logs, skipInvalid: files.skipInvalid)
        if fitPrior {
            bench.population = LogisticLearner(window: window, prior: LogisticLearner.start, rate: LogisticLearner.populationRate)
            bench.policyHorizons = policyHorizons
        }
        let priors = priorFromOtherUsers ? PredictionBench.priorsFromOtherUsers(byUser, window: window, tick: scenario.tick) : nil
        for (i, (user, events)) in byUser.enumerated() {
            bench.run(user: user, events: events, prior: priors?[i] ?? LogisticLearner.prior)
        }
        if let fitted = bench.population { printError("prior: [\(fitted.weightsSource)]") }
        if let report {
            let file = try AtomicFile(path: report)
            file.write(PredictionReport.render(bench, users: users, source: files.logs.joined(separator: ", ")))
            try file.commit()
        }
        switch format {
        case .json: try printLine(try bench.json(users: users))
        case .markdown: try standardOutput(bench.text(markdown: true, users: users))
        case .table: try standardOutput(bench.text(markdown: false, users: users))
        }
    }

    /// The content window the models are asked about: the default app's, else 30 minutes.
    static func window(of scenario: Scenario) -> Int64 {
        if case .window(let w) = scenario.defaultApp.content { return w }
        return 30 * Millis.minute
    }

    /// Every user's events, in the engine's order, users in order of first appearance.
    static func readUsers(_ logs: [String], skipInvalid: Bool) throws -> ([(Int32, [UsageEvent])], NameTable) {
        var byUser: [[UsageEvent]] = []
        var source: LogSource
        do {
            source = try LogSource(paths: logs, skipInvalid: skipInvalid)
            while let e = try source.next() {
                let u = Int(e.user)
                if u >= byUser.count { byUser.append(contentsOf: repeatElement([], count: u + 1 - byUser.count)) }
                byUser[u].append(e)
            }
        } catch let e as LogError {
            throw CLIError(e.description)
        } catch let e as InputError {
            throw CLIError(e.description)
        }
        let users = byUser.indices.map { u in
            (Int32(u), byUser[u].sorted { a, b in a.time != b.time ? a.time < b.time : a.canonicallyPrecedes(b) })
        }
        if let summary = source.skippedSummary { printError("skipped invalid rows: \(summary)") }
        return (users.filter { !$0.1.isEmpty }, source.users)
    }
}
