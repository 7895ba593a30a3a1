import FetchCore
import FetchStorage
import Foundation
import Logging
import Metrics

/// The scheduling service behind the routes: the store is the truth, and each user's
/// ``PlanningSession`` is a cache of it, built by replaying the user's stored events and
/// reported fetches, kept current as events arrive, and dropped when it can no longer follow
/// (an event older than its last one, an interval change, a deletion).
///
/// It takes typed inputs (decoded by the routes) and throws ``RequestError`` for a request it
/// refuses; it knows nothing of HTTP, nor which database the store is (``ServiceStore``).
/// Store reads and writes are the store's async calls, never made while a lock is held.
public final class SchedulerService: Sendable {
    public let store: any ServiceStore
    public let scenario: Scenario
    public let seed: UInt64
    /// The policy every user's plans, wakes and push advice are made under (`adaptive` unless told).
    public let policy: any PlanningPolicy
    let slots: SlotTable
    let metrics: ServiceMetrics
    let writer: IngestWriter
    /// Plans for past moments rebuild the user from the store each time: one at a time per
    /// tenant, a few more in line, so one tenant cannot slow another (``RebuildGate``).
    let pastRebuilds: RebuildLimiter
    /// Whether the store tells this instance of every write as it commits.
    let versions = VersionWatch()

    /// The default of `maxUsersInMemory`: each live user state holds its engine and usage model
    /// (Benchmarks/RESULTS.md, "Service memory", gives the measured memory per state).
    public static let defaultMaxUsersInMemory = 10_000

    /// A service over `store`; at most `maxUsersInMemory` users' live states are kept, the
    /// least recently used dropped first (and rebuilt from the store on demand). Each tenant
    /// runs at most `pastRebuilds.running` plans for past moments at once, with
    /// `pastRebuilds.waiting` more in line; more get a 429.
    public init(store: any ServiceStore, scenario: Scenario, seed: UInt64, policy: any PlanningPolicy = ValueRuleFamilies.defaultPolicy,
                metrics: MetricsFactory, maxUsersInMemory: Int = SchedulerService.defaultMaxUsersInMemory,
                pastRebuilds: (running: Int, waiting: Int) = (1, 4)) {
        self.store = store
        self.scenario = scenario
        self.seed = seed
        self.policy = policy
        let metrics = ServiceMetrics(factory: metrics)
        self.metrics = metrics
        self.slots = SlotTable(capacity: max(1, maxUsersInMemory)) { metrics.sessionEvictions.increment() }
        self.writer = IngestWriter(store: store)
        self.pastRebuilds = RebuildLimiter(maxRunning: pastRebuilds.running, maxWaiting: pastRebuilds.waiting)
        let (slots, versions) = (self.slots, self.versions)
        store.watchVersions { news in versions.hear(news, slots: slots) }
    }

    /// A session rebuilt from the store under the service's policy
    /// (``UserHistory/liveSession(policy:scenario:seed:through:)``), and the user's version it matches.
    func buildSession(storedUser user: String, through: Instant? = nil) async throws -> (any LiveSession, version: Int64) {
        metrics.sessionBuilds.increment()
        let history = try await store.history(user: user)
        return (history.liveSession(policy: policy, scenario: scenario, seed: seed, through: through), history.version)
    }

    /// Runs `body` with the live session of a stored user (``StoredUser``): over a shared
    /// store, a session behind the version just read is built again first.
    func withSession<R: Sendable>(_ user: StoredUser, _ body: (any LiveSession) throws -> R) async throws -> R {
        let (policy, scenario, seed) = (self.policy, self.scenario, self.seed)
        return try await slots.slot(user.name).with(current: user.version, read: {
            metrics.sessionBuilds.increment()
            let history = try await store.history(user: user.name)
            return (history, history.version)
        }, make: { history in history.liveSession(policy: policy, scenario: scenario, seed: seed) }, body)
    }
}
