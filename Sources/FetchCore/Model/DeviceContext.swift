/// What the device is doing, as far as the log tells.
///
/// A log with no battery events reads as above 20% and not charging unless plugged events say
/// so; with no network events, as Wi-Fi; unknown screen state gives no screen wakes.
public struct DeviceContext: Hashable, Sendable {
    public var batteryLevel: Int16 = 100
    public var charging = false
    public var network: Network = .wifi
    public var lowPower = false
    /// nil until a screen event is seen.
    public var screenOn: Bool? = nil

    public init() {}

    /// The hard-rule-5 reason a fetch may not run now, nil when it may.
    @inlinable
    public var blocker: Refusal? {
        if lowPower { return .lowPower }
        if network == .none { return .noNetwork }
        if batteryLevel < 20 && !charging { return .lowBattery }
        return nil
    }

    /// Applies a device event.
    public mutating func apply(_ event: UsageEvent) {
        switch event.kind {
        case .battery: batteryLevel = event.value
        case .network: network = Network(rawValue: event.value) ?? .none
        case .lowPower: lowPower = event.value != 0
        case .plugged: charging = true
        case .unplugged: charging = false
        case .screenOn: screenOn = true
        case .screenOff: screenOn = false
        case .open, .push, .location, .notification: break
        }
    }
}
