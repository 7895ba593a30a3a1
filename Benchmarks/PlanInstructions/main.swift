import FetchCore
import FetchTesting

/// Plans anew, `count` times, one generated user's plan of one app from their live state: the
/// Benchmarks package's `next-from-live-state`, as a program whose instructions a profiler can
/// count (`Benchmarks/plan-instructions.sh` counts those inside `planAnew` alone). Instruction
/// counts are exact where wall times on a shared machine are not.
let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200
var source = try ArraySource(csv: SyntheticLog.csv(users: 200, days: 7, seed: 1))
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
