/// One row read from an imported source, before the foreground rules and the canonical form.
public struct ImportedRow: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An app came to the foreground; it may become an `open`.
        case foreground(app: String)
        /// A canonical event as it is; `app` is empty for device events.
        case event(EventKind, app: String, value: String)
    }

    public var user: String
    /// UTC milliseconds.
    public var millis: Int64
    /// The user's local UTC offset at that moment, in minutes.
    public var offsetMinutes: Int
    public var kind: Kind

    public init(user: String, millis: Int64, offsetMinutes: Int, kind: Kind) {
        self.user = user
        self.millis = millis
        self.offsetMinutes = offsetMinutes
        self.kind = kind
    }
}
