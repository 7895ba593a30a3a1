import FetchAPI
import FetchCore
import FetchStorage

extension SchedulerService {
    /// Validates and stores a batch, all or nothing, then brings the live sessions up to date.
    func ingest(_ batch: API.EventBatch, tenant: String, limits: ServiceLimits) async throws -> API.IngestResult {
        let items = try batch.validated(maxEvents: limits.maxBatchEvents).map { e in
            IdentifiedEvent(id: e.id, user: UserRef.stored(tenant: tenant, name: e.user), event: e.event, appName: e.appName)
        }
        let outcome = try await writer.append(items)
        let added = outcome.added
        metrics.eventsAccepted.increment(by: added.count)
        metrics.eventsDuplicate.increment(by: items.count - added.count)
        follow(outcome)
        return API.IngestResult(accepted: added.count, duplicates: items.count - added.count)
    }

    /// Feeds new events to the users' live sessions, in time order. A session that would have
    /// to go back in time, or to its last moment again (it may have been built from a read that
    /// already held these events), or that missed another instance's write (``VersionStep``), is
    /// dropped and rebuilt from the store when next needed.
    private func follow(_ outcome: AppendOutcome) {
        var byUser: [String: [IdentifiedEvent]] = [:]
        for item in outcome.added { byUser[item.user, default: []].append(item) }
        for (user, items) in byUser {
            guard let slot = slots.existing(user) else { continue }
            let sorted = items.enumerated().sorted { ($0.element.event.time, $0.offset) < ($1.element.event.time, $1.offset) }.map(\.element)
            slot.update(outcome.steps[user]) { session in
                guard let first = sorted.first, first.event.time.millis > session.lastEventTime else { return false }
                for item in sorted {
                    var e = item.event
                    if e.app >= 0 { e.app = session.apps.id(item.appName) }
                    e.user = session.userID ?? e.user
                    session.receive(e)
                }
                return true
            }
        }
    }
}
