import FetchCore
import FetchStorage
import Foundation

/// One stored user's live planning session, behind its own lock: requests for different users
/// run in parallel, requests for one user one at a time.
///
/// The lock is held only for work in memory. The store is read with no lock held: a request
/// that finds no session reads the user's history, builds the session, and keeps it only if
/// nothing about the user was written meanwhile (``version``); otherwise it answers from what
/// it built (a request concurrent with that write may) and the next request builds again.
///
/// The session also carries the store's ``UserVersion`` it matches (``stamp``). Over a store
/// other instances write to, a request passes the version it read, and a session at another
/// version is dropped and built again; a write of this instance moves the stamp only when the
/// session was at the write's version before it (``VersionStep``).
final class UserSlot: @unchecked Sendable {
    private let lock = NSLock()
    /// nil until built from the store, and again whenever it no longer matches the store.
    private var session: (any LiveSession)?
    /// Counts the writes about the user that the session, if any, was brought up to date with
    /// or dropped for.
    private var version = 0
    /// The store's version of the user that the session matches.
    private var stamp: Int64 = 0
    /// The highest version heard of (``heard(version:)``) since the session was built: past
    /// ``stamp``, the session is stale until this instance's own write brings it there.
    private var heardAhead: Int64 = .min

    /// Runs `body` with the session, building it first with `build` (no lock held) when needed,
    /// or when it is not at `current`, the store's version just read (nil: not checked).
    func with<R>(current: Int64? = nil, build: () async throws -> (any LiveSession, version: Int64),
                 _ body: (any LiveSession) throws -> R) async throws -> R {
        let seen = try lock.withLock { () throws -> Result<R, any Error>? in
            if session != nil, heardAhead > stamp || current.map({ stamp != $0 }) == true {
                session = nil
                self.version &+= 1
            }
            return session.map { s in Result { try body(s) } }
        }
        if let seen { return try seen.get() }
        let version = lock.withLock { self.version }
        let (built, builtStamp) = try await build()
        return try lock.withLock {
            if let s = session { return try body(s) }  // another request built one meanwhile
            if self.version == version {  // nothing heard during the read: it saw every write heard before
                session = built
                stamp = builtStamp
                heardAhead = .min
            }
            return try body(built)
        }
    }

    /// Runs `body` on the session if it is built; `body` returns false to drop it. Call after
    /// each write about the user, with the write's version step when it has one: a session
    /// that was not at the step's `before` missed another instance's write and is dropped.
    func update(_ step: VersionStep? = nil, _ body: (any LiveSession) -> Bool) {
        lock.lock()
        defer { lock.unlock() }
        version &+= 1
        guard let s = session else { return }
        if let step, step.before != stamp {
            session = nil
        } else if !body(s) {
            session = nil
        } else if let step {
            stamp = step.after
        }
    }

    /// Whether a session is built (then the user exists: deleting a user removes its slot).
    var isBuilt: Bool {
        lock.lock()
        defer { lock.unlock() }
        return session != nil && heardAhead <= stamp
    }

    /// Hears that the store's version of the user is now `version`. A session behind it is
    /// stale until a write of this instance moves it there (its notification can come before
    /// its step: ``update(_:_:)``), else it is built again when next used; a session being
    /// built is not kept (it may have read the store before the write).
    func heard(version: Int64) {
        lock.lock()
        defer { lock.unlock() }
        if session == nil {
            self.version &+= 1
        } else {
            heardAhead = max(heardAhead, version)
        }
    }

    /// Drops the session after a write it cannot follow (an interval change, a deletion).
    func invalidate() {
        update { _ in false }
    }
}
