import FetchStorage
/// A user the store has events of: the stored name, and over a shared store the user's
/// version read with that check (nil when the store has no other writer to notice, or tells
/// this instance of every write: ``VersionWatch``).
struct StoredUser: Sendable {
    var name: String
    var version: Int64?
}
