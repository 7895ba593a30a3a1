import FetchCore

extension PredictionBench {
    /// The most folds ``priorsFromOtherUsers(_:window:tick:policyHorizons:)`` fits a prior for: a
    /// pass over the other users each, so the cost stays at most this many passes over the logs.
    public static let maxPriorFolds = 10

    /// Each user's population prior, in the order of `users`, fitted as the shipped prior is (one
    /// learner carried from user to user, from ``LogisticLearner/start``) over the users of the
    /// other folds only, so that no user's prior has seen that user: user `i` is in fold `i % k`,
    /// `k` the number of users up to ``maxPriorFolds`` (leave-one-out up to that many). Nil with
    /// fewer than two users, where there are no others to learn from. With `policyHorizons`,
    /// fitted for the `learned` policy's question (``OpenLearner/policyHorizon``), as
    /// ``LogisticLearner/policyPrior`` is.
    public static func priorsFromOtherUsers(_ users: [(Int32, [UsageEvent])], window: Int64, tick: Int64,
                                            policyHorizons: Bool = false) -> [OpenFeatures.Vector]? {
        guard users.count >= 2 else { return nil }
        let folds = min(users.count, maxPriorFolds)
        let priors = (0..<folds).map { fold in
            var fit = PredictionBench(window: window, tick: tick, leaveOneOut: false)
            fit.population = LogisticLearner(window: window, prior: LogisticLearner.start, rate: LogisticLearner.populationRate)
            fit.policyHorizons = policyHorizons
            for (i, (user, events)) in users.enumerated() where i % folds != fold { fit.run(user: user, events: events) }
            return fit.population!.weights
        }
        return users.indices.map { priors[$0 % folds] }
    }
}
