import FetchCore

/// One event of a service batch, with the client's id for idempotent retries.
public struct IdentifiedEvent: Sendable {
    public var id: String
    public var user: String
    /// The event; its app id is the caller's, so the app's name travels with it.
    public var event: UsageEvent
    public var appName: String

    public init(id: String, user: String, event: UsageEvent, appName: String) {
        self.id = id
        self.user = user
        self.event = event
        self.appName = appName
    }
}
