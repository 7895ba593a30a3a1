import FetchCore

extension PredictionBench {
    /// One user's pass: the learners, the answers looked up ahead, the user's scores.
    struct UserRun {
        var model = UsageModel()
        var sequence = AppSequenceModel()
        var learner: OpenLearner
        var others: [LogisticLearner]
        /// The registry's predictors, each with this user's state.
        var extras: [any PredictorRunning]
        /// Per app id, its opens' times, and the first not before the last moment asked.
        var opens: [[Int64]] = []
        var cursor: [Int] = []
        var lastEvent: Int64 = .min
        var userScores: [PredictionScore]
        /// Per primary model, its scores calibrated for this user as its rule would.
        var calibrations: [RuleCalibration]
        let window: Int64
        /// App ids by their last open, most recent first: a list linked through these arrays,
        /// so that an open moves its app to the front in constant time.
        var newer: [Int32] = [], older: [Int32] = []
        var newest: Int32 = -1

        init(bench: PredictionBench, events: [UsageEvent], prior: OpenFeatures.Vector) {
            window = bench.window
            learner = OpenLearner(window: bench.window, prior: prior)
            others = bench.leftOut.map { LogisticLearner(window: bench.window, without: [$0]) }
            extras = bench.extras.map { $0.running() }
            userScores = Array(repeating: PredictionScore(), count: bench.primary.count)
            calibrations = Array(repeating: RuleCalibration(), count: bench.primary.count)
            for e in events where e.kind == .open && e.app >= 0 {
                let a = Int(e.app)
                if a >= opens.count { opens.append(contentsOf: repeatElement([], count: a + 1 - opens.count)) }
                opens[a].append(e.time.millis)
            }
            cursor = Array(repeating: 0, count: opens.count)
        }

        mutating func observe(_ e: UsageEvent) {
            let t = e.time.millis
            for i in others.indices {
                others[i].advance(to: t)
                if e.kind == .open {
                    let stale = StaleOpenLabel.stale(open: t, previous: learner.context.lastOpen(e.app), window: window)
                    others[i].opened(e.app, at: t, stale: stale)
                }
            }
            learner.observe(e)
            model.observe(e)
            sequence.observe(e)
            for i in extras.indices { extras[i].observe(e) }
            lastEvent = t
            if e.kind == .open && e.app >= 0 { openedRecently(e.app) }
        }

        /// Moves `app` to the front of the apps by last open.
        mutating func openedRecently(_ app: Int32) {
            let a = Int(app)
            if a >= newer.count {
                newer.append(contentsOf: repeatElement(-2, count: a + 1 - newer.count))  // -2: not in the list
                older.append(contentsOf: repeatElement(-2, count: a + 1 - older.count))
            }
            guard newest != app else { return }
            if newer[a] != -2 {
                let (n, o) = (newer[a], older[a])
                older[Int(n)] = o
                if o >= 0 { newer[Int(o)] = n }
            }
            newer[a] = -1
            older[a] = newest
            if newest >= 0 { newer[Int(newest)] = app }
            newest = app
        }

        /// The apps a moment scores, by id: every app the learner knows but the one opened; for a
        /// user with more than ``PredictionBench/maxAppsScored`` apps, the most recently opened
        /// of them only, so that a moment's cost has a bound whatever the number of apps.
        func appsScored(at m: PredictionMoment) -> (apps: [Int], bounded: Bool) {
            let known = learner.counts.apps
            guard known.count > PredictionBench.maxAppsScored else {
                return (known.indices.filter { known[$0] != nil && Int32($0) != m.opened }, false)
            }
            var chosen: [Int] = []
            chosen.reserveCapacity(PredictionBench.maxAppsScored)
            var app = newest
            while app >= 0 && chosen.count < PredictionBench.maxAppsScored {
                if Int(app) < known.count && known[Int(app)] != nil && app != m.opened { chosen.append(Int(app)) }
                app = older[Int(app)]
            }
            return (chosen.sorted(), true)
        }

        /// What happened after `m` for `app`: whether its first open in the window was stale.
        mutating func label(_ app: Int, at t: Int64) -> Bool {
            let times = opens[app]
            var c = cursor[app]
            while c < times.count && times[c] < t + StaleOpenLabel.lead { c += 1 }
            cursor[app] = c
            guard c < times.count, StaleOpenLabel.covers(open: times[c], moment: t, window: window) else { return false }
            return StaleOpenLabel.stale(open: times[c], previous: c > 0 ? times[c - 1] : .min, window: window)
        }

        mutating func moment(_ m: PredictionMoment, into bench: inout PredictionBench) {
            let t = m.time, k = m.kind.rawValue
            let horizon = bench.policyHorizons ? OpenLearner.policyHorizon : nil
            let (scored, bounded) = appsScored(at: m)
            if bounded { bench.boundedMoments += 1 }
            // Read once per moment: the scoring below leaves them as they are, and each call into
            // FetchCore with one read from this run's mutable state would copy it per app.
            var reading = MomentReading(model: model, sequence: sequence, counts: learner.counts, context: learner.context, window: window)
            let models = bench.scoredModels, base = models.count
            for index in scored {
                let app = Int32(index)
                let y = label(index, at: t)
                let last = reading.context.lastOpen(app)
                let share = last == .min ? 1 : min(1, max(0, Double(t - last) / Double(window)))
                let x = OpenFeatures.make(app, at: m, model: reading.model, counts: reading.counts, context: reading.context)
                reading.staleShare = share
                reading.learned = learner.logistic.probability(x)
                learner.logistic.record(x, app: app, at: t, horizon: horizon)
                for j in 0..<base {
                    let chance = models[j].chance(app, m, reading)
                    bench.byKind[j][k].add(chance, y)
                    userScores[j].add(chance, y)
                    bench.decided[j].add(calibrations[j].chance(chance, kind: m.kind, label: y, at: t, window: window), y)
                }
                for j in extras.indices {
                    let chance = extras[j].score(app, at: m, horizon: window) * share
                    bench.byKind[base + j][k].add(chance, y)
                    userScores[base + j].add(chance, y)
                    bench.decided[base + j].add(calibrations[base + j].chance(chance, kind: m.kind, label: y, at: t, window: window), y)
                }
                for i in others.indices {
                    bench.byKind[bench.primary.count + i][k].add(others[i].probability(x), y)
                    others[i].record(x, app: app, at: t)
                }
            }
        }
    }
}

extension PredictionBench {
    /// The apps the moment of the last of `events` (an open) scores, the events observed first:
    /// what tests of ``maxAppsScored`` check against a plain reference.
    func appsScoredAtEnd(events: [UsageEvent]) -> [Int] {
        guard let last = events.last else { return [] }
        var run = UserRun(bench: self, events: events, prior: LogisticLearner.prior)
        for e in events { run.observe(e) }
        return run.appsScored(at: PredictionMoment(kind: .open, time: last.time.millis, offsetMinutes: 0, opened: last.app)).apps
    }
}

/// A predictor with one user's state, as `predict` runs it beside its own models.
protocol PredictorRunning {
    mutating func observe(_ event: UsageEvent)
    mutating func score(_ app: Int32, at moment: PredictionMoment, horizon: Int64) -> Double
}

struct PredictorRun<P: OpenPredictor>: PredictorRunning {
    let predictor: P
    var state: P.State

    mutating func observe(_ event: UsageEvent) { predictor.observe(event, state: &state) }

    mutating func score(_ app: Int32, at moment: PredictionMoment, horizon: Int64) -> Double {
        predictor.score(app, at: moment, horizon: horizon, state: &state)
    }
}

extension OpenPredictor {
    /// This predictor with a new user's state.
    func running() -> any PredictorRunning { PredictorRun(predictor: self, state: makeState()) }
}
