import FetchBench
import FetchCore

extension BenchCommand {
    /// Each user's prior for the learned policies, fitted on the other users of `logs` for the
    /// policy's question, as the shipped ``LogisticLearner/policyPrior`` is fitted on a generated
    /// population (``PredictionBench/priorsFromOtherUsers(_:window:tick:policyHorizons:)``).
    static func population(_ logs: [String], skipInvalid: Bool, scenario: Scenario) throws -> PopulationPriors {
        let (byUser, users) = try PredictCommand.readUsers(logs, skipInvalid: skipInvalid)
        guard let priors = PredictionBench.priorsFromOtherUsers(byUser, window: PredictCommand.window(of: scenario), tick: scenario.tick,
                                                                policyHorizons: true) else {
            throw CLIError("--prior-from-other-users needs logs of two users or more")
        }
        return PopulationPriors(zip(byUser, priors).map { user, prior in (userHash: StableHash.of(users[user.0]), prior: prior) })
    }
}
