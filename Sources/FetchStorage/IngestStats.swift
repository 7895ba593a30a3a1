/// What one ingest did.
public struct IngestStats: Sendable {
    public init() {}
    public var read = 0
    public var inserted = 0
    /// Users whose usage models the ingest learned again (none unless asked to learn).
    public var learned = 0
    /// Rows the store already held (the same log ingested again).
    public var duplicates: Int { read - inserted }
}
