/// A family's model of opens as `predict` scores it from its own reading of one user's history
/// (``MomentReading``): the chance the family's policy weighs, before any decision. The built-in
/// families bring the counting baseline's, APPM's, `adaptive-v1`'s habits and the learned model.
/// A family of your own brings an ``OpenPredictor`` instead (``PolicyFamily/predictor``).
public struct ScoredModel: Sendable {
    /// The model's name in `predict`'s tables.
    public let name: String
    /// Where `predict` lists it among the registry's scored models, lowest first (ties in the
    /// registry's order); its rows keep the order they had before the registry named them.
    public let rank: Int
    /// The chance that `app` is opened within the window after `moment` and finds stale content.
    public let chance: @Sendable (_ app: Int32, _ moment: PredictionMoment, _ reading: borrowing MomentReading) -> Double

    public init(name: String, rank: Int,
                chance: @escaping @Sendable (_ app: Int32, _ moment: PredictionMoment, _ reading: borrowing MomentReading) -> Double) {
        self.name = name
        self.rank = rank
        self.chance = chance
    }
}

/// What `predict` has read of one user's history at a moment, the same for every scored model:
/// the usage model, the app sequence, the counts and context of the learned model, and that
/// model's chance for the app scored.
public struct MomentReading: ~Copyable {
    public let model: UsageModel
    public let sequence: AppSequenceModel
    public let counts: OpenCounts
    public let context: UsageContext
    /// The content window the chance is over.
    public let window: Int64
    /// The share of the window in which an open of the app scored would find stale content.
    public var staleShare: Double
    /// The learned model's chance for the app scored (``OpenLearner``).
    public var learned: Double

    public init(model: UsageModel, sequence: AppSequenceModel, counts: OpenCounts, context: UsageContext, window: Int64) {
        self.model = model
        self.sequence = sequence
        self.counts = counts
        self.context = context
        self.window = window
        staleShare = 1
        learned = 0
    }
}
