import FetchStorage
import Synchronization

/// Whether this instance hears of every write to a shared store as it commits
/// (``ServiceStore/watchVersions(_:)``): while it does, a built session is answered from
/// without reading the user's version first, and each change it hears drops the sessions it
/// makes stale.
///
/// Another instance's write reaches this one when its notification does, a fraction of a
/// millisecond after the commit on one machine: a request in between is answered from what
/// this instance knew. When the notifications stop, the version is read per request again.
final class VersionWatch: Sendable {
    private let live = Atomic<Bool>(false)

    var isLive: Bool { live.load(ordering: .acquiring) }

    func hear(_ news: VersionNews, slots: SlotTable) {
        switch news {
        case .listening:
            // What changed while nobody listened is not known: every session is built again.
            slots.invalidateAll()
            live.store(true, ordering: .releasing)
        case .lost:
            live.store(false, ordering: .releasing)
        case .moved(let user, let version?):
            slots.existing(user)?.heard(version: version)
        case .moved(let user, nil):
            slots.remove(user)
        }
    }
}
