import ArgumentParser
import FetchBench
import FetchCore
import FetchResults
import FetchReport
import FetchStorage

/// `fetchsched bench`: several policies over the same logs and seed, one row each.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Compare policies on the same logs and seed, one row each.")

    @OptionGroup var input: InputOptions
    @OptionGroup var runOptions: RunOptions

    @Option(help: ArgumentHelp("Comma-separated policies. \(PolicySpec.helpText)."))
    var policies: String = "none,fixed:15m,fixed:60m,oracle"

    @Flag(help: ArgumentHelp("Also sweep each policy family's knob (adaptive@<share>, fixed:<interval>) in the same pass, and report "
                             + "per family its curve of rescued opens against energy, read at the oracle's energy, and its best point.",
                             valueName: "frontier"))
    var frontier = false

    @Option(help: ArgumentHelp("With --frontier, the families to sweep, comma-separated "
                               + "(\(Frontier.familyNames.joined(separator: ", "))), or all; default: the families a user compares "
                               + "(\(PolicyRegistry.builtIn.sweptByDefaultNames.joined(separator: ", "))). The oracles are added either way.",
                               valueName: "families"))
    var sweep: String?

    @Flag(help: "Start each user's learned model (learned, learned:<x>) from a prior fitted on the other users of the logs (in up to 10 folds of users; leave-one-out with 10 users or fewer) instead of the shipped one. The logs are read whole first.")
    var priorFromOtherUsers = false

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Also write a self-contained HTML report with charts to this file.", valueName: "file.html"))
    var report: String?

    @Option(help: "The user whose day the report shows (default: the user of the first event).")
    var user: String?

    @Option(help: ArgumentHelp("The day the report shows, YYYY-MM-DD in the user's local time (default: the user's busiest day).", valueName: "date"))
    var day: String?

    func run() async throws {
        try AtomicFile.refuse(outputs: [report], over: input.files + [runOptions.scenarioOptions.scenario])
        var list = try parsePolicies(policies, run: runOptions)
        let named = list.count
        if frontier {
            let scenario = try runOptions.scenarioOptions.loadScenario()
            for name in try Frontier.sweptPolicies(for: scenario, families: sweep) + Frontier.references
            where !list.contains(where: { $0.name == name }) {
                list.append(PolicySpec.parse(name)!)
            }
        }
        if priorFromOtherUsers {
            let population = try Self.population(input.logs, skipInvalid: input.skipInvalid,
                                                 scenario: try runOptions.scenarioOptions.loadScenario())
            list = list.map { $0.learning(from: population) }
        }
        let requestedDay = try day.map(Self.parseDay)
        // The timeline draws the policies named (the first `named` of the list), not a sweep's points.
        var recorders: [Int: TimelineRecorder] = [:]
        var chosen = user
        var events: [UsageEvent] = []
        let runner = try Runner(input: input, run: runOptions)
        let perApp = output.per == .app ? AppRecorders() : nil
        let timeline = report != nil
        let reports = try await runner.replay(list, sinks: timeline || perApp != nil ? { i, users, apps in
            var recorder: TimelineRecorder?
            if timeline && i < named {
                recorder = TimelineRecorder(user: chosen ?? "", users: users, apps: apps)
                recorders[i] = recorder!
            }
            return TraceTee.of([recorder, perApp?.sink(i, users: users, apps: apps)])
        } : nil, tap: timeline ? { e, users in
            // Seen before any replay takes the event: the default user is the first event's.
            if chosen == nil {
                chosen = users[e.user]
                for r in recorders.values { r.user = users[e.user] }
            }
            if users[e.user] == chosen { events.append(e) }
        } : nil, acrossUsers: timeline)
        if let shard = runOptions.userShard {
            let run = runOptions.shardRun(command: "bench", policies: policies, frontier: frontier, sweep: sweep, input: input,
                                              scenarioText: runner.scenario.text, skipped: reports.first?.skipped ?? [:],
                                              inputDigest: runner.inputDigest.value)
            return try ShardReport(shard: shard, run: run, results: reports).write()
        }
        let frontiers = frontier ? Frontier.families(reports) : []
        let apps = try perApp?.report(reports, only: output.onlyApps)
        if let path = report {
            let drawn = reports.indices.compactMap { i in recorders[i].map { (policy: reports[i].policy, recorder: $0) } }
            let timeline = Timeline.build(user: chosen ?? "", events: events, day: requestedDay, recorders: drawn)
            let file = try AtomicFile(path: path)
            file.write(HTMLReport.render(reports, frontiers: frontiers, timeline: timeline, apps: apps,
                                         source: input.db ?? input.logs.joined(separator: ", ")))
            try file.commit()
        }
        if let apps { return try AppRecorders.render(apps, format: output.format, to: standardOutput) }
        try Self.render(reports, frontiers: frontiers, policies: policies, output: output, to: standardOutput)
    }

    func validate() throws {
        if let sweep {
            guard frontier else { throw ValidationError("--sweep names the families a frontier sweeps: give --frontier too") }
            do { _ = try Frontier.sweptPolicies(for: .default, families: sweep) } catch { throw ValidationError(error.description) }
        }
        if priorFromOtherUsers && (input.db != nil || runOptions.shard != nil) {
            throw ValidationError("--prior-from-other-users reads every user from log files: not with --db or --shard")
        }
        if runOptions.shard != nil && (report != nil || output.format != .table) {
            throw ValidationError("a run with --shard writes a shard report: give --format and --report to 'fetchsched merge'")
        }
        try output.refusePerApp(shard: runOptions.shard != nil, byUser: runOptions.byUser)
    }

    /// The output of `bench` for its reports: what a sharded run's `merge` prints too.
    /// `policies` is the list as given: with a frontier, misses are shown for those only.
    /// CSV has the policies' rows only: with a frontier, the sweep's points are among them.
    /// The text is handed to `write` in pieces: CSV and JSON a row at a time.
    static func render(_ reports: [ReplayResult], frontiers: [Frontier], policies: String, output: OutputOptions,
                       to write: (String) throws -> Void) throws {
        let frontier = !frontiers.isEmpty, format = output.format
        switch format {
        case .csv: try ReplayResult.writeCSV(reports, per: output.per.csvRows ?? .policy, to: write)
        case .json where frontier:
            try ResultText.writeJSON(FrontierOutput(policies: reports, frontiers: frontiers), reports: reports, to: write)
        case .json: try ResultText.writeJSON(reports, reports: reports, to: write)
        case .markdown, .table:
            let md = format == .markdown
            var out = md ? ResultText.markdown(reports) : ResultText.table(reports)
            if frontier {
                // The sweep's points are in the first table; the misses are shown for the policies asked for.
                let asked = reports.filter { r in Frontier.family(of: r.policy) == nil || policies.split(separator: ",").contains { $0 == r.policy } }
                out += "\n" + ResultText.frontiers(frontiers, markdown: md) + "\n" + ResultText.missed(asked, markdown: md)
                let scenario = reports.first?.scenario ?? .default
                out += "\n" + ResultText.userFrontiers(UserFrontiers(reports, budgetMicroJPerDay: scenario.energyBudgetMicroJ), markdown: md)
            }
            try write(out)
        }
    }

    static func parseDay(_ text: String) throws -> Int64 {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), parts[2] >= 1,
              parts[2] <= LocalTime.daysInMonth(year: parts[0], month: parts[1]) else {
            throw CLIError("--day '\(text)' is not a date such as 2025-01-13")
        }
        return LocalTime.days(year: parts[0], month: parts[1], day: parts[2])
    }
}

/// `bench --frontier --format json`: the policies' reports and the families' frontiers.
struct FrontierOutput: Encodable {
    var policies: [ReplayResult]
    var frontiers: [Frontier]
}
