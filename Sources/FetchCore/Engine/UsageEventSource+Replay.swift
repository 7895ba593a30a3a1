extension UsageEventSource {
    /// Feeds every event to every replay, in one pass over the input.
    public mutating func run(_ replays: [ReplayDriver]) throws {
        if replays.count == 1 {
            let only = replays[0]
            while let e = try next() { only.consume(e) }
        } else {
            while let e = try next() { for r in replays { r.consume(e) } }
        }
    }

    /// Feeds every event to every replay, in one pass over the input, each user's events of a
    /// batch together (``UserGrouping``): the same reports, but not for replays that trace.
    public mutating func runGrouped(_ replays: [ReplayDriver]) throws {
        var grouping = UserGrouping()
        while let e = try next() { grouping.add(e, to: replays) }
        grouping.flush(to: replays)
    }
}

extension UsageEventBatches {
    /// Feeds every event to every replay, in one pass over the input (``UsageEventSource/run(_:)``).
    nonisolated(nonsending) public mutating func run(_ replays: [ReplayDriver]) async throws {
        while let batch = try await nextBatch() {
            for e in batch { for r in replays { r.consume(e) } }
        }
    }

    /// Feeds every event to every replay, each user's events of a batch together
    /// (``UsageEventSource/runGrouped(_:)``).
    nonisolated(nonsending) public mutating func runGrouped(_ replays: [ReplayDriver]) async throws {
        var grouping = UserGrouping()
        while let batch = try await nextBatch() {
            for e in batch { grouping.add(e, to: replays) }
        }
        grouping.flush(to: replays)
    }
}
