/// The kinds of usage-log events (docs/formats.md).
public enum EventKind: UInt8, CaseIterable, Sendable {
    // The raw values are stored (the stores' `kind`, a shard's digest): a new kind comes last.
    case network, battery, lowPower, plugged, unplugged, screenOn, push, location, open, screenOff, notification

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
        case .notification: "notification"
        }
    }

    /// Where the kind goes among events of one user at the same instant: context first, then
    /// wakes (a notification the last of them), opens, and screen_off last.
    @inlinable
    public var canonicalRank: UInt8 {
        switch self {
        case .notification: 8
        case .open: 9
        case .screenOff: 10
        default: rawValue
        }
    }

    /// Whether the event concerns one app (`app` set) rather than the device (`app` empty).
    public var isAppEvent: Bool { self == .open || self == .push || self == .notification }

    /// A wake opportunity: the device is awake anyway, so fetches started now share the radio
    /// (a notification's app posted it, and the phone woke to show it).
    public var isWakeOpportunity: Bool {
        self == .screenOn || self == .plugged || self == .push || self == .location || self == .notification
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
