import FetchCore

/// What the service and the command line need of a store, whichever database holds it: a
/// user's history, the writes the routes make, idempotent batch appends, bulk ingest, a
/// replay's event source and closing. ``SQLiteStore`` (SQLite) and `PostgresStore`
/// (FetchPostgres) are the drivers; only the command line's `StoreLocation` chooses one.
///
/// Every driver keeps the same promises: a batch is stored all or nothing; an event id the
/// user sent before adds nothing, even when two requests carry it at once (a unique key, not a
/// read then a write), and the same id for another user is another event; a write has been
/// committed when the call returns; every write about a user moves the user's ``UserVersion``
/// in the same transaction; a store that cannot be reached says so with ``StoreUnavailable``
/// within a bounded wait, and what it gave up on is never written later. User names are the stored names (the service prefixes them with
/// the tenant), and every table of a user's data is keyed by user first, so that a user's rows
/// can live on one partition.
public protocol ServiceStore: Sendable {
    /// Whether other processes may write to this store while the service runs. The service
    /// then reads the user's version before answering from memory (``version(user:)``), except
    /// while the store tells it of every version change (``watchVersions(_:)``).
    var isShared: Bool { get }
    /// `user`'s history (``UserHistory``), with its version, read in one transaction.
    func history(user: String) async throws -> UserHistory
    /// Whether the store has any event of `user`, and the user's version: one indexed read.
    func version(user: String) async throws -> UserVersion
    /// The time of `user`'s last stored event, nil when there is none.
    func lastEventTime(user: String) async throws -> Int64?
    /// Stores a reported fetch; nil when the same (user, app, start) was stored before.
    func record(_ f: FetchReport, user: String, app: String) async throws -> VersionStep?
    /// Sets the fetch interval of `app` for `user`.
    func setInterval(_ interval: FetchInterval, user: String, app: String) async throws
    /// Forgets everything stored about `user`, in one transaction; returns the events removed.
    func deleteUser(_ user: String) async throws -> Int
    /// Appends several batches in one transaction, each all or nothing, in batch order.
    func appendGroup(_ batches: [[IdentifiedEvent]]) async throws -> [Result<AppendOutcome, any Error>]
    /// Returns when the store answers a trivial read; throws ``StoreUnavailable`` (or the
    /// store's own error) when it does not: what the service's `/ready` reports.
    func ready() async throws

    /// Where the store is, for messages: a file's path, or a URL without its password.
    var location: String { get }
    /// Stores every event of `source` (`fetchsched ingest`): all of it, or nothing when a bad row
    /// stops the read; rows already stored are left as they are. With `learn`, the usage models
    /// of the users it added events for are learned again (``IngestStats/learned``).
    func ingest<S: UsageEventSource>(_ source: inout S, learn: Bool) async throws -> IngestStats
    /// Calls `body` with every stored event, a batch at a time, each user's in time order: a
    /// replay's source. With `timeOrder`, in time order across users too, ties in the order of
    /// the users' ids (what a trace and an HTML report follow); without, a store may hand them
    /// user by user. A read that fails says so naming the store (``InputError``).
    nonisolated(nonsending) func withEventBatches<R>(timeOrder: Bool, _ body: (inout any UsageEventBatches) async throws -> R) async throws -> R
    /// Releases what the store holds open (a connection pool); it cannot be used afterwards.
    func close() async
    /// Tells `receive` of every change of a user's version as it commits, whoever writes it,
    /// for as long as the store is open (``VersionNews``). A store that is not shared tells
    /// nothing: no other process writes to it.
    func watchVersions(_ receive: @escaping @Sendable (VersionNews) -> Void)
    /// Returns once `receive` of ``watchVersions(_:)`` has been told every change committed
    /// before the call; at once when the store is not watched (or not shared).
    func catchUpVersions() async throws
    /// How many transactions of batches (``appendGroup(_:)``) the service writes at once.
    var writers: Int { get }
    /// What a person needs of one of the store's errors: its database's own message, with none
    /// of a query's values.
    func message(for error: any Error) -> String
}

extension ServiceStore {
    public var writers: Int { 1 }
    public func watchVersions(_ receive: @escaping @Sendable (VersionNews) -> Void) {}
    public func catchUpVersions() async throws {}

    public func message(for error: any Error) -> String {
        (error as? InputError)?.description ?? "\(error)"
    }

    /// Whether the store has any event of `user`.
    public func hasUser(_ user: String) async throws -> Bool {
        try await version(user: user).hasEvents
    }
}
