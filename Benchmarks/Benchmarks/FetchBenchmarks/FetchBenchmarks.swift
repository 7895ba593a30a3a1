import Benchmark
import FetchBench
import FetchCore
import FetchStorage
import FetchSQLite
import FetchTesting
import Foundation

/// Parsing, ingest and replay on a generated log of 200 users × 7 days (~170k events).
let benchmarks: @Sendable () -> Void = {
    let users = 200, days = 7
    let dir = NSTemporaryDirectory() + "fetchsched-bench-\(getpid())"
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let logPath = dir + "/log.csv"
    let csv = SyntheticLog.csv(users: users, days: days, seed: 1)
    try! csv.write(toFile: logPath, atomically: true, encoding: .utf8)
    var counting = try! LogSource(paths: [logPath])
    var events: [UsageEvent] = []
    while let e = try! counting.next() { events.append(e) }
    let eventCount = events.count
    let bytes = csv.utf8.count

    Benchmark.teardown = { try? FileManager.default.removeItem(atPath: dir) }
    // p90 tolerances for `benchmark thresholds check`, against thresholds set from the slowest of
    // several runs of one build (Benchmarks/HISTORY.md, "Speed", says how): time may be 25% worse, allocation
    // counts and sizes are exact. Throughput is reported but not checked: it is the inverse of
    // the time, in whole runs per second, too coarse for the slow benchmarks.
    let time = BenchmarkThresholds(relative: [.p90: 25.0])
    let exact = BenchmarkThresholds(relative: [.p90: 2.0])
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(5), maxIterations: 20,
                                           thresholds: [.wallClock: time, .mallocCountTotal: exact])

    // Each iteration is one whole pass: MB/s = size / wall clock, events/s = events / wall clock.
    Benchmark("parse-CSV-\(bytes / 1_000_000)MB") { _ in
        var source = try! LogSource(paths: [logPath])
        var n = 0
        while (try! source.next()) != nil { n += 1 }
        blackHole(n)
    }

    Benchmark("ingest-\(eventCount)-events", configuration: .init(maxIterations: 5)) { benchmark in
        let db = dir + "/bench-\(UUID().uuidString).sqlite"
        let store = try! SQLiteStore(path: db)
        var source = ArraySource(events: events, users: counting.users, apps: counting.apps)
        benchmark.startMeasurement()
        blackHole(try! store.ingest(&source))
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(atPath: db)
    }

    // The service's writer alone, as `Benchmarks/load.sh` loads it: groups of 8 batches of 10 new
    // events, each batch one of 50 users', committed (synchronous FULL) into a store that starts
    // empty each iteration. 100 groups per iteration: a batch's share of the writer is its time ÷ 800.
    Benchmark("service-append-800-batches", configuration: .init(maxIterations: 10)) { benchmark in
        let db = dir + "/append-\(UUID().uuidString).sqlite"
        let store = try! SQLiteStore(path: db)
        let groups = (0..<100).map { g in
            (0..<8).map { b in
                let n = g * 8 + b
                return (0..<10).map { k in
                    let i = n * 10 + k
                    return IdentifiedEvent(id: "w-\(i)", user: "load-\(n % 50)",
                                           event: UsageEvent(time: Instant(millis: 1_736_150_400_000 + Int64(i) * 7_000), user: 0, app: 0,
                                                             kind: .open, value: 0, offsetMinutes: 0),
                                           appName: "com.example.app\(k % 5)")
                }
            }
        }
        benchmark.startMeasurement()
        for group in groups { blackHole(try! await store.appendGroup(group)) }
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(atPath: db)
    }

    for policy in ["fixed:15m", "adaptive", "oracle", "counts", "learned"] {
        // Names without ':' or spaces: the threshold files are named after them, and the
        // check reads them back by the raw name.
        Benchmark("replay-\(policy.replacingOccurrences(of: ":", with: "-"))-\(eventCount)-events") { _ in
            var source = SourceBatches(ArraySource(events: events, users: counting.users, apps: counting.apps))
            let replay = makeReplay(policy: PolicySpec.parse(policy)!, scenario: .default, seed: 1,
                                    users: counting.users, apps: counting.apps)
            try! await source.runGrouped([replay])  // as the command line replays: a batch at a time
            blackHole(replay.finish())
        }
    }

    // `next` for one user, three ways: replaying their 7 days of history on each call (what the
    // command line does), projecting from their live engine state (what a service holds after
    // each event), and the same question asked again before the next event (a lookup).
    let oneUser = events.filter { counting.users[$0.user] == "user-0001" }
    let planner = FetchPlanner(scenario: .default, seed: 1)
    Benchmark("next-replaying-7-days", configuration: .init(maxIterations: 200)) { _ in
        var source = ArraySource(events: oneUser, users: counting.users, apps: counting.apps)
        blackHole(try! planner.plan(&source, user: "user-0001", app: "com.example.chat", at: nil, horizon: Millis.day))
    }
    var oneSource = ArraySource(events: oneUser, users: counting.users, apps: counting.apps)
    let live = try! planner.session(&oneSource, user: "user-0001")
    Benchmark("next-from-live-state",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 10_000,
                                   thresholds: [.wallClock: time, .mallocCountTotal: exact])) { _ in
        blackHole(live.planAnew(app: "com.example.chat", at: nil, horizon: Millis.day))
    }
    // The same under `adaptive-v1`, the policy `adaptive` was before the value rule: what a plan
    // under `adaptive` costs against it, in one run.
    var v1Source = ArraySource(events: oneUser, users: counting.users, apps: counting.apps)
    let v1 = try! FetchPlanner(scenario: .default, seed: 1, policy: AdaptivePolicy()).session(&v1Source, user: "user-0001")
    Benchmark("next-from-live-state-adaptive-v1",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 10_000)) { _ in
        blackHole(v1.planAnew(app: "com.example.chat", at: nil, horizon: Millis.day))
    }
    Benchmark("next-asked-again",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 10_000,
                                   thresholds: [.wallClock: time, .mallocCountTotal: exact])) { _ in
        blackHole(live.plan(app: "com.example.chat", at: nil, horizon: Millis.day))
    }
    // A plan of each of the user's apps after an event (what the service answers when each app
    // asks for its own): each from a run of its own, and all from one shared run (`PlanRun`).
    let userApps = Set(oneUser.filter { $0.kind == .open }.map(\.app)).sorted().map { counting.apps[$0] }
    Benchmark("next-every-app-each-anew",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 2_000,
                                   thresholds: [.wallClock: time, .mallocCountTotal: exact])) { _ in
        for app in userApps { blackHole(live.planAnew(app: app, at: nil, horizon: Millis.day)) }
    }
    Benchmark("next-every-app-shared-run",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 2_000,
                                   thresholds: [.wallClock: time, .mallocCountTotal: exact])) { _ in
        blackHole(live.plans(apps: userApps, at: nil, horizon: Millis.day))
    }

    // The prediction benchmark (`predict`) for one user with many apps: its cost grows with the
    // moments, not with moments times apps, as a moment scores at most `PredictionBench.maxAppsScored`
    // apps. The same 6,000 opens over 200 apps (all scored) and over 3,000 (the bound in force).
    for apps in [200, 3_000] {
        let opens = (0..<6_000).map { i in
            UsageEvent(time: Instant(millis: 1_736_150_400_000 + Int64(i) * Millis.minute), user: 0, app: Int32(i * 7 % apps), kind: .open)
        }
        Benchmark("predict-6000-opens-\(apps)-apps", configuration: .init(maxDuration: .seconds(10), maxIterations: 5)) { _ in
            var bench = PredictionBench(window: 30 * Millis.minute, tick: 15 * Millis.minute, leaveOneOut: false)
            bench.run(user: 0, events: opens)
            blackHole(bench.boundedMoments)
        }
    }

    // One user with many apps: a decision weighs at most `WeighedApps.limit` of them (the most
    // recently opened), so a replay and a plan grow with the opens, not with opens times apps. The
    // same 6,000 opens over 200 apps (all weighed) and over 3,000 (the bound in force).
    for apps in [200, 3_000] {
        let path = dir + "/apps-\(apps).csv"
        var text = "timestamp,user,app,event,value\n"
        for i in 0..<6_000 { text += "\(1_736_150_400 + 60 * i),u,com.app\(i * 7 % apps),open,\n" }
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        var reading = try! LogSource(paths: [path])
        var opens: [UsageEvent] = []
        while let e = try! reading.next() { opens.append(e) }
        for policy in ["adaptive", "ev-learned"] {
            Benchmark("replay-\(policy)-6000-opens-\(apps)-apps", configuration: .init(maxDuration: .seconds(10), maxIterations: 5)) { _ in
                var source = SourceBatches(ArraySource(events: opens, users: reading.users, apps: reading.apps))
                let replay = makeReplay(policy: PolicySpec.parse(policy)!, scenario: .default, seed: 1,
                                        users: reading.users, apps: reading.apps)
                try! await source.runGrouped([replay])
                blackHole(replay.finish())
            }
        }
        var planSource = ArraySource(events: opens, users: reading.users, apps: reading.apps)
        let session = try! planner.session(&planSource, user: "u")
        Benchmark("next-from-live-state-\(apps)-apps",
                  configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 1_000)) { _ in
            blackHole(session.planAnew(app: "com.app1", at: nil, horizon: Millis.day))
        }
    }

    // Stored model size: one record per user plus one per app the user opened (see SQLiteStore+Models).
    var models: [Int32: UsageModel] = [:]
    for e in events { models[e.user, default: UsageModel()].observe(e) }
    Benchmark("model-bytes",
              configuration: .init(metrics: [.custom("bytes per user-app", useScalingFactor: false),
                                              .custom("bytes per user", useScalingFactor: false)], maxIterations: 1,
                                   thresholds: [.custom("bytes per user-app", useScalingFactor: false): exact,
                                                .custom("bytes per user", useScalingFactor: false): exact])) { benchmark in
        var appBytes = 0, appRecords = 0, userBytes = 0
        for model in models.values {
            let r = model.records { counting.apps[$0] }
            userBytes += r.user.count
            appRecords += r.apps.count
            appBytes += r.apps.reduce(0) { $0 + $1.bytes.count }
        }
        benchmark.measurement(.custom("bytes per user-app", useScalingFactor: false), appBytes / max(1, appRecords))
        benchmark.measurement(.custom("bytes per user", useScalingFactor: false), userBytes / max(1, models.count))
    }

    // The learned model's memory per user, at its largest over the log: its counts, recent past,
    // weights and the examples waiting for their labels, asked about every app at every open.
    Benchmark("learned-model-bytes",
              configuration: .init(metrics: [.custom("bytes per user", useScalingFactor: false)], maxIterations: 1,
                                   thresholds: [.custom("bytes per user", useScalingFactor: false): exact])) { benchmark in
        var learners: [Int32: (learner: OpenLearner, model: UsageModel, peak: Int)] = [:]
        for e in events {
            var entry = learners[e.user] ?? (OpenLearner(), UsageModel(), 0)
            entry.learner.observe(e)
            entry.model.observe(e)
            if e.kind == .open {
                let m = PredictionMoment(kind: .open, time: e.time.millis, offsetMinutes: Int(e.offsetMinutes), opened: e.app)
                for app in entry.learner.counts.apps.indices where entry.learner.counts.apps[app] != nil && Int32(app) != e.app {
                    _ = entry.learner.predict(Int32(app), at: m, model: entry.model)
                }
                entry.peak = max(entry.peak, entry.learner.bytes)
            }
            learners[e.user] = entry
        }
        benchmark.measurement(.custom("bytes per user", useScalingFactor: false),
                              learners.values.reduce(0) { $0 + $1.peak } / max(1, learners.count))
    }
}
