/// The kinds of usage-log events (docs/formats.md).
public enum EventKind: UInt8, CaseIterable, Sendable {
    case network, battery, lowPower, plugged, unplugged, screenOn, push, location, open, screenOff

    /// The name used in logs.
    public var logName: String { logBytes.description }

    /// The name used in logs, fixed at compile time: a log reader compares bytes with it on
    /// every row, and a `String` costs reference counting there.
    public var logBytes: StaticString {
        switch self {
        case .open: "open"
        case .screenOn: "screen_on"
        case .screenOff: "screen_off"
        case .plugged: "plugged"
        case .unplugged: "unplugged"
        case .battery: "battery"
        case .network: "network"
        case .lowPower: "lowpower"
        case .push: "push"
        case .location: "location"
        }
    }

    /// Whether the event concerns one app (`app` set) rather than the device (`app` empty).
    public var isAppEvent: Bool { self == .open || self == .push }

    /// A wake opportunity: the device is awake anyway, so fetches started now share the radio.
    public var isWakeOpportunity: Bool {
        self == .screenOn || self == .plugged || self == .push || self == .location
    }
}

/// The network a device is on.
public enum Network: Int16, Sendable, CaseIterable {
    case none = 0, wifi = 1, cellular = 2

    /// The name used in logs.
    public var logName: String { logBytes.description }

    /// The name used in logs, fixed at compile time (see ``EventKind/logBytes``).
    public var logBytes: StaticString {
        switch self {
        case .none: "none"
        case .wifi: "wifi"
        case .cellular: "cellular"
        }
    }
}

/// The value of a `push` event.
public enum PushKind: Int16, Sendable {
    case silent = 0, alert = 1
}
