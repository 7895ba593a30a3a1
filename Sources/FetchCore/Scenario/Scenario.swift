/// The defaults a usage log does not carry: energy model, budgets, and per app the fetch
/// interval, content model and fetch profile (docs/formats.md, "Scenarios").
public struct Scenario: Hashable, Sendable {
    public var batteryWh: Double
    public var energy: EnergyModel
    /// Daily energy budget per device, in microjoules.
    public var energyBudgetMicroJ: Int64
    /// Daily cellular data budget per device, in bytes.
    public var cellularBudgetBytes: Int64
    /// The engine's periodic decision tick, in milliseconds.
    public var tick: Int64
    /// How fast discretionary background transfers download on Wi-Fi.
    public var transferBytesPerSecond: Int64 = 1_000_000
    /// Silent pushes delivered per device and app within any hour; more are held.
    public var silentPushesPerHour = 3
    /// The least expected rescues per joule that makes a fetch worth it to `adaptive`
    /// (scenario `adaptive.minRescuesPerJoule`): one rescued open per 40 J by default.
    public var minRescuesPerJoule = 0.025
    /// Settings for apps the scenario does not name.
    public var defaultApp: AppSettings
    /// Settings by app name.
    public var apps: [String: AppSettings]

    public init(batteryWh: Double, energy: EnergyModel, energyBudgetMicroJ: Int64, cellularBudgetBytes: Int64,
                tick: Int64, defaultApp: AppSettings, apps: [String: AppSettings] = [:]) {
        self.batteryWh = batteryWh
        self.energy = energy
        self.energyBudgetMicroJ = energyBudgetMicroJ
        self.cellularBudgetBytes = cellularBudgetBytes
        self.tick = tick
        self.defaultApp = defaultApp
        self.apps = apps
    }

    public func settings(forApp name: String) -> AppSettings { apps[name] ?? defaultApp }

    /// The defaults of docs/energy-model.md and data/scenarios/README.md; `data/scenarios/default.json` says the same.
    public static let `default` = Scenario(
        batteryWh: 12,
        energy: EnergyModel(
            processingWatts: 1.0,
            wifi: RadioModel(wakeJoules: 1.5, joulesPerMB: 1.0, tail: 2 * Millis.second),
            cellular: RadioModel(wakeJoules: 12.0, joulesPerMB: 4.0, tail: 10 * Millis.second)),
        energyBudgetMicroJ: 864_000_000,
        cellularBudgetBytes: 20_000_000,
        tick: 15 * Millis.minute,
        defaultApp: AppSettings(
            interval: .minimum,
            content: .window(30 * Millis.minute),
            profile: FetchProfile(durationMedian: 2 * Millis.second, durationP95: 8 * Millis.second,
                                  bytes: 150_000, noDataBytes: 2_000, failureRate: 0.02)))
}

/// One app's interval, content model and fetch profile.
public struct AppSettings: Hashable, Sendable {
    public var interval: FetchInterval
    public var content: ContentModel
    public var profile: FetchProfile
    /// Whether the app monitors location: a `location` event wakes it for about 10 seconds.
    public var monitorsLocation = false
    /// A longer background task the app registers when opened, or nil.
    public var task: TaskProfile? = nil

    public init(interval: FetchInterval, content: ContentModel, profile: FetchProfile) {
        self.interval = interval
        self.content = content
        self.profile = profile
    }
}
