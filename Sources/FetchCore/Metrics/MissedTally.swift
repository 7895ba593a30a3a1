/// The stale opens of a replay, by the last chance a policy had to make them fresh: where the
/// opens a policy misses come from, and so what it would have to predict to rescue them.
///
/// A chance counts only if a fetch started then would have made the open fresh (after the
/// content went stale, for `window` content within the window) and could have finished first.
public struct MissedTally: Equatable, Sendable, Codable {
    /// The last chance before a stale open.
    public enum LastChance: Int, CaseIterable, Sendable {
        /// A `screen_on` at least 5 s before the open.
        case screenOn
        /// Else, an open of another app in the 10 minutes before.
        case otherAppOpen
        /// Else, only the periodic tick (or a timer).
        case tickOnly

        public var key: String {
            switch self {
            case .screenOn: "screenOn"
            case .otherAppOpen: "otherAppOpen"
            case .tickOnly: "tickOnly"
            }
        }
    }

    public var counts = SIMD4<Int64>()

    public init() {}

    public subscript(_ chance: LastChance) -> Int64 { counts[chance.rawValue] }

    mutating func count(_ chance: LastChance) { counts[chance.rawValue] += 1 }

    mutating func merge(_ o: MissedTally) { counts &+= o.counts }

    /// The last chance before a stale open at `open` whose content a fetch could refresh from
    /// `since` on, given the user's last screen_on and last open of another app.
    static func lastChance(open: Int64, since: Int64, screenOn: Int64, otherOpen: Int64) -> LastChance {
        let latest = open - 5 * Millis.second
        if screenOn != .min && screenOn >= since && screenOn <= latest { return .screenOn }
        if otherOpen != .min && otherOpen >= max(since, open - 10 * Millis.minute) && otherOpen <= latest { return .otherAppOpen }
        return .tickOnly
    }
}
