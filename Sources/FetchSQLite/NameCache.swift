import FetchStorage
/// The store ids of user and app names, and the (user, app) pairs `user_apps` holds, as the
/// service's writer last committed them: a batch whose names are all known reads none of them.
///
/// Only committed rows belong here (``absorb(_:)`` after the commit): a name added by a batch
/// that was rolled back has no row, and its id may go to another name. Ids change only when a
/// user is deleted, and a deletion through the store empties the cache: one service process owns
/// a SQLite store, and other processes only ingest, which adds names and changes none. The cache
/// is bounded: a table that grows past ``capacity`` starts over, so a store of many names costs
/// lookups, not memory.
struct NameCache: Sendable {
    private(set) var users: [String: Int64] = [:]
    private(set) var apps: [String: Int64] = [:]
    private(set) var pairs: Set<UserApp> = []

    /// The most entries each of the three tables holds.
    static let capacity = 1 << 16

    /// A user's id and an app's id, as `user_apps` pairs them.
    struct UserApp: Hashable, Sendable {
        var user: Int64
        var app: Int64
    }

    init() {}

    func user(_ name: String) -> Int64? { users[name] }
    func app(_ name: String) -> Int64? { apps[name] }
    func contains(_ pair: UserApp) -> Bool { pairs.contains(pair) }

    mutating func addUser(_ name: String, _ id: Int64) { Self.put(name, id, in: &users) }
    mutating func addApp(_ name: String, _ id: Int64) { Self.put(name, id, in: &apps) }
    mutating func addPair(_ pair: UserApp) {
        if pairs.count >= Self.capacity { pairs.removeAll() }
        pairs.insert(pair)
    }

    /// Takes in everything `other` holds.
    mutating func absorb(_ other: NameCache) {
        for (name, id) in other.users { addUser(name, id) }
        for (name, id) in other.apps { addApp(name, id) }
        for pair in other.pairs { addPair(pair) }
    }

    private static func put(_ name: String, _ id: Int64, in table: inout [String: Int64]) {
        if table.count >= capacity, table[name] == nil { table.removeAll() }
        table[name] = id
    }
}
