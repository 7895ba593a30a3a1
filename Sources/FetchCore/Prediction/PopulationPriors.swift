/// Per user of a population, the prior a learned model starts from, fitted on the other users
/// only (``PredictionBench/priorsFromOtherFolds(_:window:tick:policyHorizons:)``): a prior from
/// what the people at hand do, not from a shipped one, without a user's prior having seen that
/// user. Users are found by the stable hash of their name (``StableHash``), as the engine knows them.
public struct PopulationPriors: Sendable {
    let folds: [OpenFeatures.Vector]
    let foldOf: [UInt64: Int]

    /// The priors of `folds`, and each user's fold by the hash of its name.
    public init(folds: [OpenFeatures.Vector], users: [(userHash: UInt64, fold: Int)]) {
        self.folds = folds
        foldOf = Dictionary(users.map { ($0.userHash, $0.fold) }, uniquingKeysWith: { first, _ in first })
    }

    /// The prior of the user whose name hashes to `userHash`; nil for a user not in the population.
    public subscript(userHash: UInt64) -> OpenFeatures.Vector? {
        foldOf[userHash].map { folds[$0] }
    }
}
