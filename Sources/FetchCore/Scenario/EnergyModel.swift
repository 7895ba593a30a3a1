/// How much energy a fetch costs (docs/energy-model.md).
///
/// A fetch pays its radio's wake-up and tail unless it starts while the radio is already
/// awake on the same network (a wake under way, which it shares), about `processingWatts` for
/// its duration, and a transfer energy per megabyte.
public struct EnergyModel: Hashable, Sendable {
    public var processingWatts: Double
    public var wifi: RadioModel
    public var cellular: RadioModel

    public init(processingWatts: Double, wifi: RadioModel, cellular: RadioModel) {
        self.processingWatts = processingWatts
        self.wifi = wifi
        self.cellular = cellular
    }

    @inlinable
    public func radio(_ network: Network) -> RadioModel { network == .cellular ? cellular : wifi }

    /// Microjoules of processing for `ms` milliseconds.
    @inlinable
    public func processingMicroJ(_ ms: Int64) -> Int64 { Int64((processingWatts * Double(ms) * 1_000).rounded()) }

    /// Microjoules of a fetch of `ms` moving `bytes` on `network`, with or without the wake-up.
    @inlinable
    public func fetchMicroJ(ms: Int64, bytes: Int64, network: Network, sharedWake: Bool) -> Int64 {
        let radio = radio(network)
        return (sharedWake ? 0 : radio.wakeMicroJ) + processingMicroJ(ms) + radio.transferMicroJ(bytes)
    }
}

/// One radio's costs.
public struct RadioModel: Hashable, Sendable {
    public var wakeJoules: Double
    public var joulesPerMB: Double
    /// How long the radio stays awake after activity; fetches starting within it share the wake.
    public var tail: Int64

    public init(wakeJoules: Double, joulesPerMB: Double, tail: Int64) {
        self.wakeJoules = wakeJoules
        self.joulesPerMB = joulesPerMB
        self.tail = tail
    }

    @inlinable
    public var wakeMicroJ: Int64 { Int64((wakeJoules * 1_000_000).rounded()) }

    /// Joules per megabyte is microjoules per byte.
    @inlinable
    public func transferMicroJ(_ bytes: Int64) -> Int64 { Int64((Double(bytes) * joulesPerMB).rounded()) }
}
