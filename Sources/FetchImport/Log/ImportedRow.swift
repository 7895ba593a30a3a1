import FetchCore

/// One row read from an imported source, before the foreground rules and the canonical form.
public struct ImportedRow: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An app came to the foreground; it may become an `open`.
        case foreground(app: String)
        /// The home screen came to the front, shown by an activity of a package that is also an
        /// app of its own (the Google app's launcher on Android 5 and 6): it ends the app in
        /// front and opens nothing.
        case home
        /// The user unlocked the phone (the keyguard went away): a `screen_on`, unless the screen
        /// came on just before and this completes the same wake (``ForegroundRules``).
        case unlocked
        /// The phone shut down: the screen is off and no app is in front (a `screen_off`, unless
        /// the screen went off before). Its start again opens nothing: the next unlock does.
        case shutdown
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
