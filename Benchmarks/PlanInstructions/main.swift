import FetchBench
import FetchCore
import FetchResults
import FetchTesting

/// Work whose instructions a profiler can count (`Benchmarks/plan-instructions.sh` counts those
/// inside the function it names), on `SyntheticLog.csv(users: 200, days: 7, seed: 1)`:
/// - `plan [count]`: one user's plan of one app, `count` times anew from their live state (the
///   Benchmarks package's `next-from-live-state`), counted inside `planAnew`;
/// - `replay <policy>`: a replay of the whole log under the policy, counted inside `replayAll`.
///
/// Instruction counts are exact where wall times on a shared machine are not.
let arguments = Array(CommandLine.arguments.dropFirst())
let source = try ArraySource(csv: SyntheticLog.csv(users: 200, days: 7, seed: 1))

@inline(never)
@MainActor
func replayAll(_ policy: any FetchPolicy) throws -> String {
    var events = source
    let replay = makeReplay(policy: policy, scenario: .default, seed: 1, users: events.users, apps: events.apps)
    try events.run([replay])
    return try ResultText.json(replay.finish())
}

if arguments.first == "replay" {
    guard let name = arguments.dropFirst().first, let policy = PolicySpec.parse(name) else {
        fatalError("usage: PlanInstructions replay <policy>")
    }
    print("replay of \(name): \(try replayAll(policy).utf8.count) bytes of JSON")
} else {
    let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 200
    let oneUser = source.events.filter { source.users[$0.user] == "user-0001" }
    var userSource = ArraySource(events: oneUser, users: source.users, apps: source.apps)
    let live = try FetchPlanner(scenario: .default, seed: 1).session(&userSource, user: "user-0001")
    var triggers = 0, entries = 0
    for _ in 0..<count {
        let plan = live.planAnew(app: "com.example.chat", at: nil, horizon: Millis.day)
        triggers += plan.triggers.count
        entries += plan.entries.count
    }
    print("\(count) plans: \(triggers) triggers, \(entries) timed entries")
}
