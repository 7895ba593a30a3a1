import FetchCore
import FetchStorage
import Synchronization

/// One stored user's live planning session, behind its own lock: requests for different users
/// run in parallel, requests for one user one at a time.
///
/// The lock is held only for work in memory. The store is read with no lock held: a request
/// that finds no session reads the user's history, then makes the session from it under the
/// lock, and keeps it only if nothing about the user was written meanwhile (``State/version``);
/// otherwise it answers from one made for it alone (a request concurrent with that write may)
/// and the next request makes it again.
///
/// The session also carries the store's ``UserVersion`` it matches (``State/stamp``). Over a
/// store other instances write to, a request passes the version it read, and a session at
/// another version is dropped and built again; a write of this instance moves the stamp only
/// when the session was at the write's version before it (``VersionStep``).
final class UserSlot: Sendable {
    /// What the lock guards: the session and what says whether it still matches the store.
    struct State {
        /// nil until built from the store, and again whenever it no longer matches the store.
        var session: (any LiveSession)?
        /// Counts the writes about the user that the session, if any, was brought up to date
        /// with or dropped for.
        var version = 0
        /// The store's version of the user that the session matches.
        var stamp: Int64 = 0
        /// The highest version heard of (``UserSlot/heard(version:)``) since the session was
        /// built: past ``stamp``, the session is stale until this instance's own write brings it there.
        var heardAhead: Int64 = .min
    }

    private let state = Mutex(State())

    /// Runs `body` with the session, made first when needed, or when it is not at `current`,
    /// the store's version just read (nil: not checked): `read` reads what it is made from (no
    /// lock held), then `make` makes it under the lock, where it is kept if nothing about the
    /// user was written meanwhile.
    ///
    /// Made under the lock, the session is the lock's from the start: a session made outside it
    /// could not be handed to the lock's state without the compiler losing sight of who holds
    /// it. A request that read the store while another made and kept the session answers from
    /// that one rather than making its own.
    func with<Source: Sendable, R: Sendable>(current: Int64? = nil, read: () async throws -> (Source, version: Int64),
                                             make: @Sendable (Source) -> sending any LiveSession,
                                             _ body: (any LiveSession) throws -> R) async throws -> R {
        let seen = state.withLock { s -> Result<R, any Error>? in
            if s.session != nil, s.heardAhead > s.stamp || current.map({ s.stamp != $0 }) == true {
                s.session = nil
                s.version &+= 1
            }
            guard let session = s.session else { return nil }
            do { return .success(try body(session)) } catch { return .failure(error) }
        }
        if let seen { return try seen.get() }
        let version = state.withLock { $0.version }
        let (source, stamp) = try await read()
        return try state.withLock { s -> Result<R, any Error> in
            if s.session == nil, s.version == version {  // nothing heard during the read: it saw every write heard before
                s.session = make(source)
                s.stamp = stamp
                s.heardAhead = .min
            }
            // Another request may have made one meanwhile; else one made for this answer alone.
            if let session = s.session {
                do { return .success(try body(session)) } catch { return .failure(error) }
            }
            let session = make(source)
            do { return .success(try body(session)) } catch { return .failure(error) }
        }.get()
    }

    /// Runs `body` on the session if it is built; `body` returns false to drop it. Call after
    /// each write about the user, with the write's version step when it has one: a session
    /// that was not at the step's `before` missed another instance's write and is dropped.
    func update(_ step: VersionStep? = nil, _ body: (any LiveSession) -> Bool) {
        state.withLock { s in
            s.version &+= 1
            guard let session = s.session else { return }
            if let step, step.before != s.stamp {
                s.session = nil
            } else if !body(session) {
                s.session = nil
            } else if let step {
                s.stamp = step.after
            }
        }
    }

    /// Whether a session is built (then the user exists: deleting a user removes its slot).
    var isBuilt: Bool {
        state.withLock { $0.session != nil && $0.heardAhead <= $0.stamp }
    }

    /// Hears that the store's version of the user is now `version`. A session behind it is
    /// stale until a write of this instance moves it there (its notification can come before
    /// its step: ``update(_:_:)``), else it is built again when next used; a session being
    /// built is not kept (it may have read the store before the write).
    func heard(version: Int64) {
        state.withLock { s in
            if s.session == nil {
                s.version &+= 1
            } else {
                s.heardAhead = max(s.heardAhead, version)
            }
        }
    }

    /// Drops the session after a write it cannot follow (an interval change, a deletion).
    func invalidate() {
        update { _ in false }
    }
}
