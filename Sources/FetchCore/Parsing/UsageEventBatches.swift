/// Where a replay's usage events come from a batch at a time, read without holding a thread:
/// a store's events come over the network or from a database's own queue, a log's from a file.
/// Per user the events are in time order; names are interned in `users` and `apps` as they are
/// read, before the batch that first names them is returned.
public protocol UsageEventBatches {
    var users: NameTable { get }
    var apps: NameTable { get }
    /// The next events, never an empty batch; nil once the source is exhausted.
    nonisolated(nonsending) mutating func nextBatch() async throws -> [UsageEvent]?
    /// The share of the input read so far (0...1), when the source knows it.
    var progress: Double? { get }
}

extension UsageEventBatches {
    public var progress: Double? { nil }
}

/// A synchronous source read a batch at a time: a log file, or events in memory.
public struct SourceBatches<Base: UsageEventSource>: UsageEventBatches {
    /// The events a batch holds at most.
    public static var size: Int { 8192 }
    package var base: Base

    public init(_ base: Base) { self.base = base }

    public var users: NameTable { base.users }
    public var apps: NameTable { base.apps }
    public var progress: Double? { base.progress }

    public mutating func nextBatch() throws -> [UsageEvent]? {
        var batch: [UsageEvent] = []
        batch.reserveCapacity(Self.size)
        while batch.count < Self.size, let e = try base.next() { batch.append(e) }
        return batch.isEmpty ? nil : batch
    }
}
