import FetchCore
import Foundation

/// One stored user's live planning session, behind its own lock: requests for different users
/// run in parallel, requests for one user one at a time.
final class UserSlot: @unchecked Sendable {
    private let lock = NSLock()
    /// nil until built from the store, and again whenever it no longer matches the store.
    private var session: PlanningSession?

    /// Runs `body` with the session, building it first with `build` when needed.
    func with<R>(build: () throws -> PlanningSession, _ body: (PlanningSession) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        if session == nil { session = try build() }
        return try body(session!)
    }

    /// Runs `body` on the session if it is built; `body` returns false to drop it.
    func update(_ body: (PlanningSession) -> Bool) {
        lock.lock()
        defer { lock.unlock() }
        if let s = session, !body(s) { session = nil }
    }

    /// Whether a session is built (then the user exists: deleting a user removes its slot).
    var isBuilt: Bool {
        lock.lock()
        defer { lock.unlock() }
        return session != nil
    }

    func invalidate() {
        lock.lock()
        defer { lock.unlock() }
        session = nil
    }
}
