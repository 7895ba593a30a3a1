/// What a shared store tells a service instance of the writes to it, its own and other
/// processes' (``ServiceStore/watchVersions(_:)``).
public enum VersionNews: Sendable, Equatable {
    /// From now on every change of a user's version is told as it commits; what changed
    /// before is not known.
    case listening
    /// A user's version moved to `version`; nil when the user was deleted.
    case moved(user: String, version: Int64?)
    /// Changes are no longer told, until the next ``listening``.
    case lost
}
