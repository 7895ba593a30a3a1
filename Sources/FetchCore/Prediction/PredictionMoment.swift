/// A moment at which a scheduler could fetch, as the prediction models see it.
public struct PredictionMoment: Sendable, Equatable {
    /// The kinds of moment, each scored apart.
    public enum Kind: Int, CaseIterable, Sendable, Comparable {
        case tick, unlock, open, plug

        public var name: String {
            switch self {
            case .tick: "tick"
            case .unlock: "unlock"
            case .open: "open"
            case .plug: "plug"
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    public var time: Int64
    public var offsetMinutes: Int
    /// The app just opened, at an open; -1 otherwise.
    public var opened: Int32

    public init(kind: Kind, time: Int64, offsetMinutes: Int, opened: Int32 = -1) {
        self.kind = kind
        self.time = time
        self.offsetMinutes = offsetMinutes
        self.opened = opened
    }

    /// The moment of a policy's decision point; nil for one no model weighs (a content update,
    /// the location and push wakes).
    public init?(_ point: DecisionPoint, time: Int64, offsetMinutes: Int) {
        switch point {
        case .tick, .timer: self.init(kind: .tick, time: time, offsetMinutes: offsetMinutes)
        case .wake(.screenOn): self.init(kind: .unlock, time: time, offsetMinutes: offsetMinutes)
        case .wake(.plugged): self.init(kind: .plug, time: time, offsetMinutes: offsetMinutes)
        case .open(let app): self.init(kind: .open, time: time, offsetMinutes: offsetMinutes, opened: app)
        case .wake, .contentUpdate: return nil
        }
    }
}

/// What the prediction models predict: whether a moment is followed by an open of the app that
/// would find its content stale with no background fetch at all.
public enum StaleOpenLabel {
    /// How soon after the moment an open must come for a fetch started then to have finished.
    public static let lead: Int64 = 5 * Millis.second

    /// Whether an open at `open` follows the moment at `moment` within `window` closely enough
    /// to be the one a fetch then would serve (only the first such open can be stale).
    @inline(__always)
    public static func covers(open: Int64, moment: Int64, window: Int64) -> Bool {
        open >= moment + lead && open <= moment + window
    }

    /// Whether an open at `open`, the app's previous open being at `previous` (`.min` for
    /// none), would find content refreshed by opens alone stale.
    @inline(__always)
    public static func stale(open: Int64, previous: Int64, window: Int64) -> Bool {
        previous == .min || open - previous > window
    }
}
