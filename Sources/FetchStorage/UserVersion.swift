/// How far the store has come for one user: a number every write about the user changes, in
/// the same transaction as the write. A service instance that keeps a user's engine in memory
/// compares it with the store's before answering, and so notices what other instances wrote.
///
/// Versions come from one store-wide counter: a user deleted and written again never gets a
/// version an earlier state of that user had. A user no versioned write has touched (events
/// stored by `fetchsched ingest` before versions existed) has version 0.
public struct UserVersion: Sendable, Equatable {
    /// Whether the store holds any event of the user (the service's "user exists").
    public var hasEvents: Bool
    public var version: Int64

    public init(hasEvents: Bool, version: Int64) {
        self.hasEvents = hasEvents
        self.version = version
    }
}

/// The user's version before and after one write transaction. A copy of the user's state
/// taken at `before` can follow the write and be current at `after`; any other copy is stale.
public struct VersionStep: Sendable, Equatable {
    public var before: Int64
    public var after: Int64

    public init(before: Int64, after: Int64) {
        self.before = before
        self.after = after
    }
}

/// What appending one batch did: the events added (those whose id the tenant had not sent), in
/// batch order, and the version step of each user the batch wrote.
public struct AppendOutcome: Sendable {
    public var added: [IdentifiedEvent]
    public var steps: [String: VersionStep]

    public init(added: [IdentifiedEvent], steps: [String: VersionStep]) {
        self.added = added
        self.steps = steps
    }
}
