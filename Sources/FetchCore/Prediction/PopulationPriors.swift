/// Per user of a population, the prior a learned model starts from, fitted on the other users
/// only (FetchBench's `PredictionBench.priorsFromOtherUsers`): a prior from
/// what the people at hand do, not from a shipped one, without a user's prior having seen that
/// user. Users are found by the stable hash of their name (``StableHash``), as the engine knows them.
public struct PopulationPriors: Sendable {
    let priors: [UInt64: OpenFeatures.Vector]

    /// Each user's prior, by the hash of the user's name.
    package init(_ users: [(userHash: UInt64, prior: OpenFeatures.Vector)]) {
        priors = Dictionary(users.map { ($0.userHash, $0.prior) }, uniquingKeysWith: { first, _ in first })
    }

    /// The prior of the user whose name hashes to `userHash`; nil for a user not in the population.
    package subscript(userHash: UInt64) -> OpenFeatures.Vector? { priors[userHash] }
}
