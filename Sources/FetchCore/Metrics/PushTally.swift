/// What became of a replay's pushes; integers, so tallies merge the same in any order.
public struct PushTally: Equatable, Sendable, Codable {
    public var silent = 0
    public var alert = 0
    /// Silent pushes a policy planned (also counted in `silent`).
    public var planned = 0
    /// Silent pushes delivered on arrival (within the rate limit) …
    public var deliveredNow = 0
    /// … and held over it: delivered later with an alert push or a device wake, or never (the
    /// log ended first). None is dropped unreported.
    public var held = 0
    public var deliveredLate = 0
    public var undelivered = 0
    /// Total delay of the late deliveries, in milliseconds.
    public var delayMs: Int64 = 0
    /// Push-woken fetches (refused ones not counted) …
    public var fetches = 0
    /// … and the opens they rescued (found fresh thanks to a push-woken fetch).
    public var rescuedOpens = 0

    public init() {}

    public var isEmpty: Bool { silent == 0 && alert == 0 }

    public mutating func merge(_ o: PushTally) {
        silent += o.silent
        alert += o.alert
        planned += o.planned
        deliveredNow += o.deliveredNow
        held += o.held
        deliveredLate += o.deliveredLate
        undelivered += o.undelivered
        delayMs += o.delayMs
        fetches += o.fetches
        rescuedOpens += o.rescuedOpens
    }
}
