import FetchStorage
import FetchAPI
import Synchronization

/// Runs rebuilds of past moments under a ``RebuildGate``: it performs what the gate decides
/// (run, park the request until its ticket is called, or refuse it with a 429).
///
/// A parked request is not cancelled by its client going away; the line is short
/// (``RebuildGate/maxWaiting``), so it waits for at most that many rebuilds.
final class RebuildLimiter: Sendable {
    private struct State {
        var gate: RebuildGate
        var parked: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Tickets called before their request parked.
        var called: Set<Int> = []
    }
    private let state: Mutex<State>

    init(maxRunning: Int = 1, maxWaiting: Int = 4) {
        state = Mutex(State(gate: RebuildGate(maxRunning: maxRunning, maxWaiting: maxWaiting)))
    }

    /// Runs `body` when `tenant` may rebuild, or throws a refusal when its line is full.
    func run<R: Sendable>(tenant: String, _ body: () async throws -> R) async throws -> R {
        let arrival = state.withLock { $0.gate.arrive(tenant: tenant) }
        switch arrival {
        case .run:
            break
        case .refuse:
            throw RequestError(.tooMany, "too many plans for past moments of this tenant at once; try again shortly", field: "at")
        case .wait(let ticket):
            await withCheckedContinuation { continuation in
                // The ticket may have been called before the continuation is parked.
                let called = state.withLock { s -> Bool in
                    if s.called.remove(ticket) != nil { return true }
                    s.parked[ticket] = continuation
                    return false
                }
                if called { continuation.resume() }
            }
        }
        defer { leave(tenant: tenant) }
        return try await body()
    }

    /// Rebuilds running and waiting for `tenant`.
    func load(of tenant: String) -> (running: Int, waiting: Int) {
        state.withLock { $0.gate.load(of: tenant) }
    }

    private func leave(tenant: String) {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let ticket = s.gate.leave(tenant: tenant) else { return nil }
            if let parked = s.parked.removeValue(forKey: ticket) { return parked }
            s.called.insert(ticket)  // called before it parked: it finds the mark and goes on
            return nil
        }
        next?.resume()
    }
}
