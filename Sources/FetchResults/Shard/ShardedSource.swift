import FetchCore

/// The events of one shard's users: the base source's other events are read and dropped.
///
/// Names are interned by the base source as they come, so a user keeps the id it has in an
/// unsharded read, and a shard's replay is exactly the part of the whole replay about its users.
public struct ShardedSource<Base: UsageEventSource>: UsageEventSource {
    public var base: Base
    private var members: ShardMembers

    public init(base: Base, shard: UserShard) {
        self.base = base
        members = ShardMembers(shard)
    }

    public var shard: UserShard { members.shard }
    public var users: NameTable { base.users }
    public var apps: NameTable { base.apps }
    public var progress: Double? { base.progress }

    public mutating func next() throws -> UsageEvent? {
        while let e = try base.next() {
            if members.contains(e, users: base.users) { return e }
        }
        return nil
    }
}

/// Whether an event's user is in a shard, remembered by user id as the ids come.
public struct ShardMembers {
    public let shard: UserShard
    /// Whether each user id seen so far is in the shard.
    private var member: [Bool] = []

    public init(_ shard: UserShard) { self.shard = shard }

    /// Whether `e`'s user, named in `users`, is in the shard.
    public mutating func contains(_ e: UsageEvent, users: NameTable) -> Bool {
        let id = Int(e.user)
        while member.count <= id { member.append(shard.contains(user: users[Int32(member.count)])) }
        return member[id]
    }
}
