import FetchCore

/// One synthetic user's habits, drawn once from the seed; ``events(day:localDay:)`` lives them.
struct Persona {
    var rng: SplitMix64
    let index: Int32
    let offset: Int16
    /// Minutes after local midnight.
    let wake: Int
    let bed: Int
    let commuter: Bool
    let subwayGap: Bool
    let chargesAtNight: Bool
    let lowPowerAuto: Bool
    let drainPerHour: Double
    let newsWeekdayOnly: Bool
    let hourlyChecker: Bool
    let eveningReader: Bool
    let weekendShift: Bool
    let weatherChecker: Bool
    let podcaster: Bool
    /// The day from which the morning habit is an hour earlier, or nil.
    let habitMovesOn: Int?
    var battery: Double = 100

    static let offsets: [Int16] = [60, 0, -300, 540, 330, -480, 60, 0]

    init(index: Int, seed: UInt64, days: Int) {
        var r = SplitMix64(seed: seed, UInt64(index), 0x67_65_6E)
        self.index = Int32(index)
        offset = Self.offsets[r.int(in: 0...(Self.offsets.count - 1))]
        wake = r.int(in: 390...450)
        bed = r.int(in: 1365...1425)
        commuter = r.chance(0.6)
        subwayGap = r.chance(0.3)
        chargesAtNight = r.chance(0.85)
        lowPowerAuto = r.chance(0.5)
        drainPerHour = 3.5 + r.unit() * 3.5
        newsWeekdayOnly = r.chance(0.5)
        hourlyChecker = r.chance(0.5)
        eveningReader = r.chance(0.5)
        weekendShift = r.chance(0.15)
        weatherChecker = r.chance(0.6)
        podcaster = r.chance(0.4)
        habitMovesOn = r.chance(0.3) ? max(1, days / 2) : nil
        rng = r
    }
}
