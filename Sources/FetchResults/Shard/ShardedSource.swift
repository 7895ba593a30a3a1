import FetchCore

/// The events of one shard's users: the base source's other events are read and dropped.
///
/// Names are interned by the base source as they come, so a user keeps the id it has in an
/// unsharded read, and a shard's replay is exactly the part of the whole replay about its users.
public struct ShardedSource<Base: UsageEventSource>: UsageEventSource {
    public var base: Base
    public let shard: UserShard
    /// Whether each user id seen so far is in the shard.
    private var member: [Bool] = []

    public init(base: Base, shard: UserShard) {
        self.base = base
        self.shard = shard
    }

    public var users: NameTable { base.users }
    public var apps: NameTable { base.apps }
    public var progress: Double? { base.progress }

    public mutating func next() throws -> UsageEvent? {
        while let e = try base.next() {
            let id = Int(e.user)
            while member.count <= id { member.append(shard.contains(user: base.users[Int32(member.count)])) }
            if member[id] { return e }
        }
        return nil
    }
}
