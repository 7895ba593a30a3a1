import FetchCore

/// Events from memory, sorted by time (stable), as a ``UsageEventSource``.
public struct ArraySource: UsageEventSource {
    public let users: NameTable
    public let apps: NameTable
    /// The events, in time order (stable).
    public let events: [UsageEvent]
    private var position = 0

    public init(events: [UsageEvent], users: NameTable, apps: NameTable) {
        self.events = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        self.users = users
        self.apps = apps
    }

    /// The events of a canonical CSV log held in memory (a generated one, say).
    public init(csv: String) throws(RowProblem) {
        let users = NameTable(), apps = NameTable()
        var parser = CSVLineParser(decoder: RowDecoder(users: users, apps: apps))
        var events: [UsageEvent] = []
        for line in csv.split(separator: "\n").dropFirst() {
            var b = Array(line.utf8)
            if let e = try b.withUnsafeMutableBufferPointer({ (p) throws(RowProblem) in try parser.parse(UnsafeBufferPointer(p)) }) {
                events.append(e)
            }
        }
        self.init(events: events, users: users, apps: apps)
    }

    public mutating func next() -> UsageEvent? {
        guard position < events.count else { return nil }
        defer { position += 1 }
        return events[position]
    }
}
