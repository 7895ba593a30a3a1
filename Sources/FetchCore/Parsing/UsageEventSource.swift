/// Where usage events come from (log files, the store), one at a time and, per user, in time
/// order; names are interned in `users` and `apps` as they are read.
public protocol UsageEventSource {
    var users: NameTable { get }
    var apps: NameTable { get }
    mutating func next() throws -> UsageEvent?
    /// The share of the input read so far (0...1), when the source knows it.
    var progress: Double? { get }
}

extension UsageEventSource {
    public var progress: Double? { nil }
}
