/// The other background paths of a replay: location wakes, discretionary transfers, tasks.
public struct BackgroundTally: Equatable, Sendable, Codable {
    /// Apps woken by `location` events (for about 10 seconds each) …
    public var locationWakes = 0
    /// … and the fetches those wakes ran.
    public var locationFetches = 0
    /// Discretionary transfers handed over by fetches with a large payload …
    public var transfers = 0
    /// … completed (on Wi-Fi, and while charging when required) …
    public var transfersCompleted = 0
    /// … with their total delay from hand-over to completion, in milliseconds …
    public var transferDelayMs: Int64 = 0
    /// … and the bytes they moved (always on Wi-Fi: none on cellular) …
    public var transferBytes: Int64 = 0
    /// … and those still waiting when the log ended.
    public var transfersPending = 0
    /// Background tasks registered …
    public var tasks = 0
    /// … completed, with their total time from registration to completion …
    public var tasksCompleted = 0
    public var taskCompletionMs: Int64 = 0
    /// … expired at their limit (their app penalized as for a terminated fetch) …
    public var tasksExpired = 0
    /// … and still pending when the log ended.
    public var tasksPending = 0

    public init() {}

    public mutating func merge(_ o: BackgroundTally) {
        locationWakes += o.locationWakes
        locationFetches += o.locationFetches
        transfers += o.transfers
        transfersCompleted += o.transfersCompleted
        transferDelayMs += o.transferDelayMs
        transferBytes += o.transferBytes
        transfersPending += o.transfersPending
        tasks += o.tasks
        tasksCompleted += o.tasksCompleted
        taskCompletionMs += o.taskCompletionMs
        tasksExpired += o.tasksExpired
        tasksPending += o.tasksPending
    }
}
