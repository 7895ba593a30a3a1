/// What the model knows of one app of one user: a fixed size, whatever the history.
public struct AppHabit: Sendable, Equatable {
    /// Weighted session-first opens per time-of-week bin (quarter-hour, weekday or weekend).
    public internal(set) var opens = [Float](repeating: 0, count: UsageModel.bins)
    /// The same on each kind of day (`UsageModel.daySums(_:)`: weekdays, weekends).
    package internal(set) var opensByDay = SIMD2<Float>()
    /// Weighted session-first opens, all bins.
    package internal(set) var sessionOpens: Float = 0
    /// Weighted opens of any kind (re-opens included).
    package internal(set) var allOpens: Float = 0
    /// Of the session-first opens in sessions that began with screen_on: those that came at
    /// least ``UsageModel/usableLead`` after it (a fetch started at screen_on can finish) …
    package internal(set) var late: Float = 0
    /// … and those that came sooner.
    package internal(set) var early: Float = 0
    /// Weighted plug-ins followed by an open of this app within ``UsageModel/sessionGap``.
    package internal(set) var afterPlug: Float = 0
    /// The apps opened next (within ten minutes), at most ``UsageModel/maxSuccessors``.
    package internal(set) var successors: [Successor] = []
    /// Weighted gaps between consecutive opens, per `gapBounds` bucket: how soon
    /// the app tends to be used again (real use comes in bursts and rhythms). Inline, not an
    /// array: every decision reads it, and an array would cost an allocation per app and a
    /// reference count per read.
    public internal(set) var gaps = SIMD16<Float>()
    package internal(set) var lastOpen: Int64 = .min
    package internal(set) var openCount = 0

    public init() {}

    package struct Successor: Sendable, Equatable {
        public var app: Int32
        package var weight: Float
    }

    /// Counts `app` as opened next; a full table gives the lightest entry's place to it
    /// (space-saving), so the table keeps the heavy successors at a bounded size.
    mutating func follow(with app: Int32, weight: Float) {
        if let i = successors.firstIndex(where: { $0.app == app }) {
            successors[i].weight += weight
        } else if successors.count < UsageModel.maxSuccessors {
            successors.append(Successor(app: app, weight: weight))
        } else if let i = successors.indices.min(by: { successors[$0].weight < successors[$1].weight }) {
            successors[i] = Successor(app: app, weight: successors[i].weight + weight)
        }
    }

    mutating func scale(by f: Float) {
        for i in opens.indices { opens[i] *= f }
        opensByDay = UsageModel.daySums(opens)
        sessionOpens *= f
        allOpens *= f
        late *= f
        early *= f
        afterPlug *= f
        for i in successors.indices { successors[i].weight *= f }
        gaps *= f
    }
}
