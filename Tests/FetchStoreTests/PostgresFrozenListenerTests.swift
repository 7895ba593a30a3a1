import FetchCore
import FetchPostgresTesting
import FetchStorage
import Foundation
import Synchronization
import Testing
@testable import FetchPostgres

/// Issue 64: the database's backend of a service's listener stops (the rest serves on). The
/// service notices within the heartbeat and the wait for its own notification, and every
/// request meanwhile is answered (from the store, or as unavailable within the wait): none is
/// left on a connection that still has a statement unanswered on it.
@Suite(.enabled(if: TestDatabase.isConfigured, "needs a PostgreSQL cluster: FETCHSCHED_PG_URL (scripts/pg-cluster.sh)"),
       .timeLimit(.minutes(3)))
struct PostgresFrozenListenerTests {
    @Test func everyRequestIsAnsweredAsTheStoreNoticesItsListenerIsGone() async throws {
        // A wait of 3 s, not 1: on a loaded machine a new connection through the proxy can take
        // over a second, and a request refused for that says nothing about the listener.
        let (store, proxy, db) = try await ConnectionCloseWatchTests.store(wait: .seconds(3))
        _ = try await StoreRetry.triedAgain { try await store.appendGroup([PostgresFrozenTests.batch("ann", from: 0)]) }
        let heard = Mutex<[String]>([])
        store.watchVersions { news in heard.withLock { $0.append("\(news)") } }
        for _ in 0..<100 where !heard.withLock({ $0.contains { $0.contains("listening") } }) { try await Task.sleep(for: .milliseconds(50)) }
        try #require(heard.withLock { $0.contains { $0.contains("listening") } })
        await proxy.freezeListeners()
        // Through the heartbeat, the wait for its notification and the listener's end: a version
        // read every 100 ms, each given 10 s.
        let clock = ContinuousClock(), started = clock.now
        var unanswered = 0, answered = 0, unavailable = 0, reasons: [String] = []
        while clock.now - started < VersionWatcher.heartbeat + VersionWatcher.catchUpWait + .seconds(3) {
            switch await ConnectionCloseWatchTests.within(.seconds(10), { try await store.version(user: "ann") }) {
            case nil: unanswered += 1
            case .success?: answered += 1
            case .failure(let error)?:
                unavailable += 1
                reasons.append("\(error)")
                #expect(error is StoreUnavailable, "\(error)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        await proxy.thaw()
        #expect(unanswered == 0, "\(unanswered) requests waited 10 s (\(answered) answered, \(unavailable) unavailable)")
        // The store reads on meanwhile: at most the requests on the connection the listener handed back fail.
        #expect(answered > unavailable, "\(answered) answered, \(unavailable) unavailable: \(reasons)")
        #expect(heard.withLock { $0.contains { $0.contains("lost") } }, "\(heard.withLock { $0 })")
        await store.close()
        try await db.drop()
    }
}
