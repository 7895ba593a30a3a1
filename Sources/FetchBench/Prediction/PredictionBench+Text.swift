import FetchCore

extension PredictionBench {
    /// The benchmark's tables: per model overall and per moment kind, per user, the calibration
    /// of the base models, and (with leave-one-out) what each signal adds to the learned model.
    public func text(markdown: Bool, users: NameTable) -> String {
        let grid = { (c: [String], r: [[String]]) in ResultText.grid(c, r, markdown: markdown, leftColumns: [0, 1]) }
        let f = ResultText.fixed
        let overall = self.overall
        let base = primary.count
        var out = grid(["model", "moments", "examples", "base rate", "log-loss", "Brier", "avg precision"],
                       overall.prefix(base).enumerated().map { i, s in
                           [models[i], "all", "\(s.examples)", f(s.baseRate, 4), f(s.logLoss, 4), f(s.brier, 5), f(s.averagePrecision, 4)]
                       } + PredictionMoment.Kind.allCases.flatMap { kind in
                           (0..<base).compactMap { i -> [String]? in
                               let s = byKind[i][kind.rawValue]
                               guard s.examples > 0 else { return nil }
                               return [models[i], kind.name, "\(s.examples)", f(s.baseRate, 4), f(s.logLoss, 4), f(s.brier, 5),
                                       f(s.averagePrecision, 4)]
                           }
                       })
        out += "\n" + grid(["user", "examples"] + primary.flatMap { ["\($0) log-loss", "\($0) AP"] },
                           perUser.sorted { users[$0.user] < users[$1.user] }.map { u in
                               [users[u.user], "\(u.scores[0].examples)"] + u.scores.flatMap { [f($0.logLoss, 4), f($0.averagePrecision, 4)] }
                           })
        out += worstUsers(users: users)
        out += "\nEach model's score against how often a stale open followed; then the chance its rule decides on, the score "
            + "calibrated for each user as the value rule calibrates it (by kind of moment and range of score, from the answers known by then):\n"
        out += reliability(overall.prefix(base), heading: "score", grid: grid)
        out += "\n" + reliability(decided[...], heading: "decided chance", grid: grid)
        if boundedMoments > 0 {
            out += "\n\(boundedMoments) moments scored only the \(Self.maxAppsScored) most recently opened of their user's apps\n"
        }
        if models.count > base {
            let full = overall[2]
            out += "\n" + grid(["signal left out", "", "log-loss", "avg precision", "AP lost"],
                               (base..<models.count).map { i in
                                   [String(models[i].dropFirst("learned without ".count)), "", f(overall[i].logLoss, 4),
                                    f(overall[i].averagePrecision, 4), f(full.averagePrecision - overall[i].averagePrecision, 4)]
                               })
        }
        return out
    }
}

extension PredictionBench {
    /// Per tenth of `heading` (a model's score, or the chance its rule decides on), the examples,
    /// and per model the mean there and the share of them followed by a stale open.
    func reliability(_ scores: ArraySlice<PredictionScore>, heading: String, grid: ([String], [[String]]) -> String) -> String {
        let f = ResultText.fixed
        return grid([heading, "examples"] + primary.flatMap { ["\($0) mean", "\($0) observed"] },
                    (0..<PredictionScore.calibrationBins).map { b in
                        let lo = Double(b) / Double(PredictionScore.calibrationBins)
                        let cells = scores.flatMap { s -> [String] in
                            let c = s.calibration[b]
                            guard c.examples > 0 else { return ["-", "-"] }
                            return [f(c.chanceSum / Double(c.examples), 3), f(Double(c.positives) / Double(c.examples), 3)]
                        }
                        return ["\(f(lo, 1))–\(f(lo + 0.1, 1))", scores.map { "\($0.calibration[b].examples)" }.joined(separator: "/")] + cells
                    })
    }

    /// A line naming, per model, the user on whom its average precision is the lowest multiple of
    /// the counting baseline's: a sum carried by a few users cannot hide the others.
    func worstUsers(users: NameTable) -> String {
        guard let counts = primary.firstIndex(of: "counts"), !perUser.isEmpty else { return "" }
        let f = ResultText.fixed
        let worst = primary.indices.filter { $0 != counts }.compactMap { m -> String? in
            let ratios = perUser.compactMap { u -> (String, Double)? in
                let base = u.scores[counts].averagePrecision
                return base > 0 ? (users[u.user], u.scores[m].averagePrecision / base) : nil
            }
            guard let w = ratios.min(by: { $0.1 < $1.1 }) else { return nil }
            return "\(primary[m]) \(f(w.1, 2))× counts (\(w.0))"
        }
        return "\nWorst user, average precision against the counting baseline's: " + worst.joined(separator: "; ") + "\n"
    }
}

extension PredictionBench {
    enum CodingKeys: String, CodingKey { case models, windowMinutes, tickMinutes, overall, decided, byKind, perUser, boundedMoments, maxAppsScored }

    struct UserScores: Encodable {
        var user: String
        var scores: [String: PredictionScore]
    }

    public func json(users: NameTable) throws -> String {
        try ResultText.json(Named(bench: self, users: users))
    }

    struct Named: Encodable {
        var bench: PredictionBench
        var users: NameTable

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(bench.models, forKey: .models)
            try c.encode(bench.window / Millis.minute, forKey: .windowMinutes)
            try c.encode(bench.tick / Millis.minute, forKey: .tickMinutes)
            let overall = bench.overall
            try c.encode(Dictionary(uniqueKeysWithValues: bench.models.indices.map { (bench.models[$0], overall[$0]) }), forKey: .overall)
            try c.encode(Dictionary(uniqueKeysWithValues: bench.primary.indices.map { (bench.primary[$0], bench.decided[$0]) }), forKey: .decided)
            try c.encode(Dictionary(uniqueKeysWithValues: bench.models.indices.map { m in
                (bench.models[m], Dictionary(uniqueKeysWithValues: PredictionMoment.Kind.allCases.map { ($0.name, bench.byKind[m][$0.rawValue]) }))
            }), forKey: .byKind)
            try c.encode(bench.perUser.sorted { users[$0.user] < users[$1.user] }.map { u in
                UserScores(user: users[u.user], scores: Dictionary(uniqueKeysWithValues: bench.primary.indices.map {
                    (bench.primary[$0], u.scores[$0])
                }))
            }, forKey: .perUser)
            // Only where it happened, so that every other report reads as before.
            if bench.boundedMoments > 0 {
                try c.encode(bench.boundedMoments, forKey: .boundedMoments)
                try c.encode(PredictionBench.maxAppsScored, forKey: .maxAppsScored)
            }
        }
    }

}
