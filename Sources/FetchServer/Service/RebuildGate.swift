import FetchStorage
import DequeModule

/// Who may rebuild a user's engine for a past moment now: at most `maxRunning` rebuilds per
/// tenant at once and `maxWaiting` more in line; beyond that a request is refused. A state
/// machine as a value: its methods say what to do, ``RebuildLimiter`` does it.
///
/// A plan for a past `at` replays the user's stored history up to it on every request (no live
/// state holds it), so without a bound one tenant asking for many could take every core.
struct RebuildGate {
    let maxRunning: Int
    let maxWaiting: Int
    private var running: [String: Int] = [:]
    private var waiting: [String: Deque<Int>] = [:]
    private var nextTicket = 0

    init(maxRunning: Int, maxWaiting: Int) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// What a request arriving for `tenant` does.
    enum Arrival: Equatable {
        /// Rebuild now.
        case run
        /// Wait until ``leave(tenant:)`` hands this ticket the slot.
        case wait(ticket: Int)
        /// Too many of the tenant's rebuilds already run and wait.
        case refuse
    }

    mutating func arrive(tenant: String) -> Arrival {
        if running[tenant, default: 0] < maxRunning {
            running[tenant, default: 0] += 1
            return .run
        }
        guard waiting[tenant, default: []].count < maxWaiting else { return .refuse }
        nextTicket += 1
        waiting[tenant, default: []].append(nextTicket)
        return .wait(ticket: nextTicket)
    }

    /// A rebuild of `tenant` ended: the ticket that runs in its place, if one waits (the slot
    /// passes to it, so the count of running rebuilds stays).
    mutating func leave(tenant: String) -> Int? {
        if let ticket = waiting[tenant]?.popFirst() {
            if waiting[tenant]?.isEmpty == true { waiting[tenant] = nil }
            return ticket
        }
        running[tenant, default: 1] -= 1
        if running[tenant] == 0 { running[tenant] = nil }
        return nil
    }

    /// Rebuilds running and waiting for `tenant`.
    func load(of tenant: String) -> (running: Int, waiting: Int) {
        (running[tenant, default: 0], waiting[tenant, default: []].count)
    }
}
