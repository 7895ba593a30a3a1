import FetchCore

/// The prediction benchmark, apart from replay: at each moment a scheduler could fetch (every
/// tick, unlock, open and plug-in), every model's chance that each app the user has opened is
/// opened within the content window and would find its content stale (refreshed by opens
/// alone), scored against what the log did next. Models learn online and are scored forward
/// only: the answer to a moment reaches a learner when its window has closed, never sooner.
///
/// The models: the registry's scored models (``PolicyRegistry/scoredModels``: the built-in
/// families bring `adaptive-v1`'s habits, the counting baseline's, the learned model's and the
/// published peer APPM's chance), read from one shared pass over each user; then each predictor
/// a family brings (``PolicyFamily/predictor``), scored as the rule reads it; with leave-one-out,
/// `learned` without each signal.
public struct PredictionBench: Sendable {
    /// The models scored, in order: the primary ones, then one per signal left out.
    public let models: [String]
    /// The scored models, then the predictors the registry's families bring (``PolicyFamily/predictor``).
    public let primary: [String]
    /// The registry's scored models, in the order they are listed.
    public let scoredModels: [ScoredModel]
    let extras: [any OpenPredictor]
    public let window: Int64
    public let tick: Int64
    let leftOut: [OpenFeatures.Group]
    /// Per model, per moment kind.
    public internal(set) var byKind: [[PredictionScore]]
    /// Per primary model (all kinds), the chance its rule decides on: each score calibrated per
    /// user as the value rule calibrates it (``RuleCalibration``), against the same labels.
    public internal(set) var decided: [PredictionScore]
    /// Per user, per model (all kinds); only the primary models.
    public private(set) var perUser: [(user: Int32, scores: [PredictionScore])] = []

    /// The most apps a moment scores: a user with more has the most recently opened scored, so
    /// that the benchmark's cost grows with moments, not with moments times apps (as many as a
    /// policy's decision weighs: ``WeighedApps/limit``).
    public static let maxAppsScored = WeighedApps.limit
    /// How many moments scored only ``maxAppsScored`` of their user's apps.
    public internal(set) var boundedMoments = 0

    /// When set, one learner carried from user to user instead of one per user: how the
    /// population prior (``LogisticLearner/prior``) is fitted, with `--fit-prior`.
    public var population: LogisticLearner?
    /// Whether the learner learns with the policy's horizon (``OpenLearner/policyHorizon``)
    /// rather than the content window: how the policy's prior is fitted, with `--fit-prior --policy-horizons`.
    public var policyHorizons = false

    public init(window: Int64, tick: Int64, leaveOneOut: Bool, registry: PolicyRegistry = .builtIn) {
        self.window = window
        self.tick = max(tick, Millis.minute)
        leftOut = leaveOneOut ? OpenFeatures.Group.allCases.filter { $0 != .kind } : []
        extras = registry.families.compactMap(\.predictor)
        scoredModels = registry.scoredModels
        primary = scoredModels.map(\.name) + extras.map { type(of: $0).name }
        models = primary + leftOut.map { "learned without \($0.name)" }
        byKind = Array(repeating: Array(repeating: PredictionScore(), count: PredictionMoment.Kind.allCases.count),
                       count: models.count)
        decided = Array(repeating: PredictionScore(), count: primary.count)
    }

    /// Scores every model over one user's events (in the engine's order: by time, then
    /// ``UsageEvent/canonicallyPrecedes(_:)``), the learned model starting from `prior`.
    public mutating func run(user: Int32, events: [UsageEvent], prior: OpenFeatures.Vector = LogisticLearner.prior) {
        guard let first = events.first, let last = events.last else { return }
        var run = UserRun(bench: self, events: events, prior: prior)
        if let population { run.learner.logistic = population.carried() }
        var i = 0
        var nextTick = (LocalTime.floorDiv(first.time.millis, tick) + 1) * tick
        var offset = Int(first.offsetMinutes)
        while i < events.count {
            let t = events[i].time.millis
            while nextTick < t {
                // A silence of more than a day is a phone off or a log not recording: no ticks.
                if nextTick - run.lastEvent > Millis.day { nextTick = (LocalTime.floorDiv(t - 1, tick) + 1) * tick; continue }
                run.moment(PredictionMoment(kind: .tick, time: nextTick, offsetMinutes: offset), into: &self)
                nextTick += tick
            }
            var j = i
            while j < events.count && events[j].time.millis == t {
                run.observe(events[j])
                j += 1
            }
            offset = Int(events[j - 1].offsetMinutes)
            for e in events[i..<j] {
                let kind: PredictionMoment.Kind? = switch e.kind {
                case .screenOn: .unlock
                case .open: .open
                case .plugged: .plug
                default: nil
                }
                if let kind { run.moment(PredictionMoment(kind: kind, time: t, offsetMinutes: offset, opened: e.app), into: &self) }
            }
            if nextTick == t {
                run.moment(PredictionMoment(kind: .tick, time: t, offsetMinutes: offset), into: &self)
                nextTick += tick
            }
            i = j
        }
        _ = last
        if population != nil { population = run.learner.logistic }
        perUser.append((user, run.userScores))
    }

    /// Every model's scores over all moment kinds.
    public var overall: [PredictionScore] {
        byKind.map { kinds in kinds.reduce(into: PredictionScore()) { $0.merge($1) } }
    }

    /// Adds the scores of another bench over other users (same models and settings).
    public mutating func merge(_ other: PredictionBench) {
        for m in byKind.indices {
            for k in byKind[m].indices { byKind[m][k].merge(other.byKind[m][k]) }
        }
        for m in decided.indices { decided[m].merge(other.decided[m]) }
        perUser += other.perUser
    }
}
