import FetchCore
import Foundation

/// One stored user's live planning session, behind its own lock: requests for different users
/// run in parallel, requests for one user one at a time.
///
/// The lock is held only for work in memory. The store is read with no lock held: a request
/// that finds no session reads the user's history, builds the session, and keeps it only if
/// nothing about the user was written meanwhile (``version``); otherwise it answers from what
/// it built (a request concurrent with that write may) and the next request builds again.
final class UserSlot: @unchecked Sendable {
    private let lock = NSLock()
    /// nil until built from the store, and again whenever it no longer matches the store.
    private var session: PlanningSession<AdaptivePolicy>?
    /// Counts the writes about the user that the session, if any, was brought up to date with
    /// or dropped for.
    private var version = 0

    /// Runs `body` with the session, building it first with `build` (no lock held) when needed.
    func with<R>(build: () async throws -> PlanningSession<AdaptivePolicy>, _ body: (PlanningSession<AdaptivePolicy>) throws -> R) async throws -> R {
        let seen = try lock.withLock { () throws -> Result<R, any Error>? in
            session.map { s in Result { try body(s) } }
        }
        if let seen { return try seen.get() }
        let version = lock.withLock { self.version }
        let built = try await build()
        return try lock.withLock {
            if let s = session { return try body(s) }  // another request built one meanwhile
            if self.version == version { session = built }
            return try body(built)
        }
    }

    /// Runs `body` on the session if it is built; `body` returns false to drop it. Call after
    /// each write about the user.
    func update(_ body: (PlanningSession<AdaptivePolicy>) -> Bool) {
        lock.lock()
        defer { lock.unlock() }
        version &+= 1
        if let s = session, !body(s) { session = nil }
    }

    /// Whether a session is built (then the user exists: deleting a user removes its slot).
    var isBuilt: Bool {
        lock.lock()
        defer { lock.unlock() }
        return session != nil
    }

    /// Drops the session after a write it cannot follow (an interval change, a deletion).
    func invalidate() {
        update { _ in false }
    }
}
