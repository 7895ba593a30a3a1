/// An app's background fetch interval (docs/vocabulary.md): never, minimum, or a custom minimum gap.
public enum FetchInterval: Hashable, Sendable, CustomStringConvertible {
    /// No background fetch at all (the iOS default).
    case never
    /// The scheduler decides freely.
    case minimum
    /// After each fetch, no further fetch of the app for at least this many milliseconds.
    case custom(Int64)

    /// Parses `never`, `minimum` or `custom:<duration>` such as `custom:2h`.
    public init?(text: String) {
        switch text {
        case "never": self = .never
        case "minimum": self = .minimum
        default:
            guard text.hasPrefix("custom:"), let ms = DurationText.parse(String(text.dropFirst(7))), ms > 0
            else { return nil }
            self = .custom(ms)
        }
    }

    public var description: String {
        switch self {
        case .never: "never"
        case .minimum: "minimum"
        case .custom(let ms): "custom:\(DurationText.format(ms))"
        }
    }

    /// The interval rule: whether a fetch may start at `t` when the app's last one started at
    /// `last` (`Int64.min`: none), that is, not within the minimum gap after it. `never` is a
    /// rule of its own (the app is never fetched), checked before this one.
    @inlinable
    public func permits(start t: Int64, after last: Int64) -> Bool {
        guard case .custom(let gap) = self, last != .min else { return true }
        return t - last >= gap
    }

    /// The minimum gap between two fetch starts, 0 when there is none.
    @inlinable
    public var minimumGap: Int64 {
        if case .custom(let ms) = self { return ms }
        return 0
    }
}
