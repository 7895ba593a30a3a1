import ArgumentParser
import FetchCore
import FetchResults
import FetchStorage

/// `fetchsched next`: the planned fetch times of one app of one user, with the reasons.
struct NextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Plan the next background fetches of one app for one user, and say why.",
        discussion: "Replays the user's stored events, reported fetches and intervals up to --at under the adaptive policy or the one given with --policy (as the service does with serve --policy), then runs the same engine on through the horizon with no new events: the plan is what a replay would do from that moment.")

    @Option(help: ArgumentHelp("The store made by 'fetchsched ingest' or the service. " + StoreLocation.help, valueName: "store"))
    var db: String

    @Option(help: "The user.")
    var user: String

    @Option(help: "The app.")
    var app: String

    @Option(help: ArgumentHelp("The moment to plan from (ISO-8601 with offset, or Unix seconds); the user's last event when omitted.", valueName: "time"))
    var at: String?

    @Option(help: "How far ahead to plan, e.g. 24h.")
    var horizon: String = "24h"

    @Option(help: "Output: table or json.")
    var format: PlanFormat = .table

    @Flag(help: "Explain each planned fetch in words.")
    var explain = false

    @Option(help: ArgumentHelp("The policy to plan under: \(NextCommand.planningFamilies), each with or without its knob.",
                               valueName: "policy"))
    var policy: String = "adaptive"

    @OptionGroup var scenarioOptions: ScenarioOptions

    func validate() throws {
        for (option, name) in [("--user", user), ("--app", app)] {
            if let problem = InputBounds.nameProblem(name) { throw ValidationError("\(option) '\(InputBounds.printable(name))' \(problem)") }
        }
    }

    /// The families a plan can be made under, as the registry says, for a person: `a, b or c`.
    static var planningFamilies: String {
        let names = PolicyRegistry.builtIn.planning
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The policy named by `--policy` (of `next` and `serve`), when a plan can be made under it.
    static func planningPolicy(_ text: String) throws -> any PlanningPolicy {
        guard let planning = PolicySpec.parse(text) as? any PlanningPolicy else {
            throw CLIError("--policy '\(InputBounds.printable(text))' is not a policy a plan can be made under (\(planningFamilies), "
                           + "with or without a knob)")
        }
        return planning
    }

    func run() async throws {
        let planning = try Self.planningPolicy(policy)
        guard let span = DurationText.parse(horizon), span > 0, span <= InputBounds.maxHorizon else {
            throw CLIError("--horizon '\(InputBounds.printable(horizon))' is not a duration from 1ms to \(DurationText.format(InputBounds.maxHorizon)), such as 24h")
        }
        let moment = try at.map { text -> Instant in
            do {
                return Instant(millis: try TimestampParser.parse(text: text).millis)
            } catch let problem as RowProblem {
                throw CLIError("--at: \(problem.message)")
            }
        }
        let scenario = try scenarioOptions.loadScenario()
        let plan: FetchPlan
        do {
            // The same history the service rebuilds: events, reported fetches and intervals.
            let history = try await StoreLocation.read(db) { try await $0.history(user: user) }
            // As the service answers 404: a user without events has nothing to plan from.
            guard !history.events.isEmpty else {
                throw CLIError("no events of user '\(InputBounds.printable(user))' in the store")
            }
            plan = history.liveSession(policy: planning, scenario: scenario, seed: scenarioOptions.seed, through: moment)
                .plan(app: app, at: moment?.millis, horizon: span)
        } catch let e as InputError {
            throw CLIError(e.description)
        }
        switch format {
        case .json: try printLine(try ResultText.json(plan))
        case .table: try standardOutput(explain ? plan.explanation : plan.table)
        }
    }
}

/// `next` prints one plan: a table (or its explanation in words) or JSON.
enum PlanFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}
