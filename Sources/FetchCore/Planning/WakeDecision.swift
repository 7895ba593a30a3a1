/// The wakes a device agent can report as they happen: the device is awake anyway.
public enum WakeKind: String, CaseIterable, Sendable {
    case screenOn = "screen_on"
    case plugged
    case location

    /// The log event of this wake.
    public var event: EventKind {
        switch self {
        case .screenOn: .screenOn
        case .plugged: .plugged
        case .location: .location
        }
    }
}

/// What the engine does at one wake: the fetches it starts and the requests it refuses.
public struct WakeDecision: Sendable, Equatable {
    public struct Fetch: Sendable, Equatable {
        public var app: String
        public var network: Network
        public var energyMicroJ: Int64
        public var bytes: Int64
        /// nil for a fetch that runs.
        public var refusal: Refusal?
    }

    public var kind: WakeKind
    public var at: Int64
    public var offsetMinutes: Int
    /// In the order the engine took them.
    public var fetches: [Fetch]
}
