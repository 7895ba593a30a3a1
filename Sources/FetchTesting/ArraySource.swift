import FetchCore

/// Events from memory, sorted by time (stable), as a ``UsageEventSource``.
public struct ArraySource: UsageEventSource {
    public let users: NameTable
    public let apps: NameTable
    private let events: [UsageEvent]
    private var position = 0

    public init(events: [UsageEvent], users: NameTable, apps: NameTable) {
        self.events = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        self.users = users
        self.apps = apps
    }

    public mutating func next() -> UsageEvent? {
        guard position < events.count else { return nil }
        defer { position += 1 }
        return events[position]
    }
}
