/// How often each app followed something (an app, a context of apps), in a table of bounded
/// size: when the table is full, a new app takes the place of the lightest one and counts from
/// that one's count plus one (space-saving), so the heavy followers stay while the memory is
/// bounded whatever the log.
public struct FollowerCounts: Sendable, Equatable {
    public private(set) var entries: [Entry] = []
    /// Everything counted, including what fell out of the table.
    package private(set) var total: Int32 = 0
    let capacity: Int

    public struct Entry: Sendable, Equatable {
        public var app: Int32
        public var count: Int32
    }

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Counts one more follow by `app`; returns the app whose place it took, if the table was full.
    @discardableResult
    public mutating func add(_ app: Int32) -> Int32? {
        total &+= 1
        if let i = entries.firstIndex(where: { $0.app == app }) {
            entries[i].count &+= 1
        } else if entries.count < capacity {
            entries.append(Entry(app: app, count: 1))
        } else if let i = entries.indices.min(by: { entries[$0].count < entries[$1].count }) {
            let evicted = entries[i].app
            entries[i] = Entry(app: app, count: entries[i].count &+ 1)
            return evicted
        }
        return nil
    }

    /// How often `app` followed, zero when it is not in the table.
    public func count(of app: Int32) -> Int32 {
        entries.first { $0.app == app }?.count ?? 0
    }

    /// The number of different followers kept.
    package var distinct: Int { entries.count }

    /// Bytes the table holds, counted by element.
    public var bytes: Int { entries.count * MemoryLayout<Entry>.stride + 16 }
}
