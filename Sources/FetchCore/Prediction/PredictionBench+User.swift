extension PredictionBench {
    /// One user's pass: the learners, the answers looked up ahead, the user's scores.
    struct UserRun {
        var model = UsageModel()
        var sequence = AppSequenceModel()
        var learner: OpenLearner
        var others: [LogisticLearner]
        /// Per app id, its opens' times, and the first not before the last moment asked.
        var opens: [[Int64]] = []
        var cursor: [Int] = []
        var lastEvent: Int64 = .min
        var userScores: [PredictionScore]
        let window: Int64

        init(bench: PredictionBench, events: [UsageEvent], prior: OpenFeatures.Vector) {
            window = bench.window
            learner = OpenLearner(window: bench.window, prior: prior)
            others = bench.leftOut.map { LogisticLearner(window: bench.window, without: [$0]) }
            userScores = Array(repeating: PredictionScore(), count: PredictionBench.baseModels.count)
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
            lastEvent = t
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
            for (index, entry) in learner.counts.apps.enumerated() where entry != nil && Int32(index) != m.opened {
                let app = Int32(index)
                let y = label(index, at: t)
                let last = learner.context.lastOpen(app)
                let share = last == .min ? 1 : min(1, max(0, Double(t - last) / Double(window)))
                let adaptive = AdaptivePolicy.predictedChance(app, at: m, model: model, staleShare: share, window: window)
                let counts = CountsPolicy.chance(of: app, at: m, counts: learner.counts, window: window) * share
                let appm = APPMPolicy.chance(of: app, now: t, span: window, model: sequence) * share
                let x = learner.features(app, at: m, model: model)
                let learned = learner.logistic.probability(x)
                learner.logistic.record(x, app: app, at: t, horizon: horizon)
                // In the order of ``PredictionBench/baseModels``, without an array per example.
                bench.byKind[0][k].add(adaptive, y)
                bench.byKind[1][k].add(counts, y)
                bench.byKind[2][k].add(learned, y)
                bench.byKind[3][k].add(appm, y)
                userScores[0].add(adaptive, y)
                userScores[1].add(counts, y)
                userScores[2].add(learned, y)
                userScores[3].add(appm, y)
                for i in others.indices {
                    bench.byKind[PredictionBench.baseModels.count + i][k].add(others[i].probability(x), y)
                    others[i].record(x, app: app, at: t)
                }
            }
        }
    }
}
