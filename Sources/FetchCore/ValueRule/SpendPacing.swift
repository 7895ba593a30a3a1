#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One user's price of energy for the value rule: the expected rescues a joule must buy, set so
/// that the user's spending comes to a target share of the daily budget.
///
/// No price is fixed in advance. The price is read off the user's own opportunities: every fetch
/// the rule has weighed, by its value per joule, with its energy
/// (``record(_:cost:energy:budget:at:)``). The price is the value per joule above which the
/// opportunities of an average day so far would spend the share: the price at which the user's
/// own days would have spent it, the recent days weighing more. Within a day, spending ahead of
/// the share times the user's usual demand so far raises the price, so that the day's share is
/// not spent before evening; a day busier than the user's average may spend as much more. The
/// spending it paces is the rule's own: not the fetches an app's pushes start.
///
/// Measured and dropped (docs/policies.md, "The value rule"): a correction across days by each
/// day's spending against the target (a dual price, or a ratio of the shares spent to those
/// asked), a guard against the whole budget only, and counting an app's stretch of staleness
/// once rather than at each moment it was weighed.
package struct SpendPacing: Sendable {
    /// Ranges of value per joule, in steps of 2^(1/4), from 2^-24 up.
    static let bins = 112
    static let lowestLog2 = -24.0, step = 0.25
    /// Per range of value per joule, the energy (in shares of a day's budget) of the
    /// opportunities there.
    var energy = [Double](repeating: 0, count: bins)
    /// When the first opportunity came, and the latest.
    var first: Int64 = .min, latest: Int64 = .min
    /// The local day of the last decision, and the largest share of a budget spent by then.
    var day: Int64 = .min
    var spent = 0.0
    /// The user's opens by local quarter-hour of the day.
    var demand = [Double](repeating: 0, count: 96)
    var demandTotal = 0.0
    /// The day's demand before each quarter-hour (an even day's share of one open added to each),
    /// summed anew when `demandTotal` moves, from the first quarter-hour whose count moved
    /// (`movedFrom`): the sums before it are what they were, and summing only the rest spared most
    /// of the work a replay's price took.
    var elapsedBefore = [Double](repeating: 0, count: 97)
    var elapsedTotal = -1.0
    var movedFrom = 0
    var profiledAt: Int64 = .min
    /// The local day of the last open, the opens of that day so far, and the days with opens.
    var openDay: Int64 = .min
    var opensToday = 0.0
    var openDays = 0.0
    /// Where an opportunity's weight is 1 (the first, moved on as the weights grow), and the
    /// weight at the last moment an opportunity came.
    var origin: Int64 = .min
    var weighedAt: Int64 = .min, weightNow = 1.0
    /// The price read off the opportunities, and when (nan: to be read).
    var cached = Double.nan
    var readAt: Int64 = .min

    public init() {}

    /// How steeply running ahead of the day's share raises the price: a quarter of the share
    /// ahead of the user's demand so far multiplies it by e. Chosen among 0 to 16 on the
    /// development users and two generated populations: lower rescues more at equal energy, but
    /// spends past 1.5 times the share (Benchmarks/HISTORY.md, "The value rule over each predictor").
    static let guardRate = 4.0

    /// How fast a user's older opportunities fade from the price's reading: their weight halves
    /// with each this many days, so that a user whose days change (a quiet week, then busy ones)
    /// is priced by the recent ones. Chosen by leaving one user out (Benchmarks/HISTORY.md): the
    /// rescues at equal energy do not tell 0, 3 and 7 days apart, and 3 keeps each user's spending
    /// nearest the share asked.
    static let halfLifeDays = 3.0

    /// Counts an open into the user's demand by time of day, and into the day's opens.
    public mutating func observe(_ e: UsageEvent) {
        guard e.kind == .open else { return }
        let local = e.time.millis + Int64(e.offsetMinutes) * Millis.minute
        let quarter = Int(LocalTime.floorMod(local, Millis.day) / (15 * Millis.minute))
        demand[quarter] += 1
        demandTotal += 1
        movedFrom = min(movedFrom, quarter)
        let day = LocalTime.floorDiv(local, Millis.day)
        if day != openDay {
            openDay = day
            opensToday = 0
            openDays += 1
        }
        opensToday += 1
    }

    /// Keeps one opportunity the rule weighed: `value` expected rescues for `cost` joules (what
    /// it weighs them against), spending `energy` joules of a budget of `budget` joules a day.
    public mutating func record(_ value: Double, cost: Double, energy spend: Double, budget: Double, at time: Int64) {
        guard value > 0, cost > 0 else { return }
        if first == .min { (first, origin) = (time, time) }
        latest = max(latest, time)
        // The weight once per moment: the rule weighs every app at one moment.
        if time != weighedAt {
            weighedAt = time
            weightNow = weight(at: time)
            if weightNow > 0x1p64 {
                // Rebased to now before the weights could overflow (a user kept for years, or a
                // long gap): the older ones shrink alike, to nothing after a gap of centuries.
                for b in energy.indices { energy[b] /= weightNow }
                origin = time
                weightNow = 1
            }
        }
        energy[Self.bin(value / cost)] += spend / max(1e-9, budget) * weightNow
    }

    /// The weight of an opportunity at `time`: it doubles each half-life (``halfLifeDays``), so
    /// that each older one counts half as much as one that much later.
    func weight(at time: Int64) -> Double {
        exp2(Double(time - origin) / (Self.halfLifeDays * Double(Millis.day)))
    }

    /// The range of value per joule `x`: floor(4 log2 x) from 2^-24, read from the exponent and
    /// the significand's quarter-doublings, without a logarithm (it runs for every app weighed).
    static func bin(_ x: Double) -> Int {
        guard x.isNormal, x > 0 else { return 0 }
        // The significand, in [1, 2), from the bits: `x.significand` is a call into the runtime.
        let m = Double(bitPattern: x.bitPattern & 0x000F_FFFF_FFFF_FFFF | 0x3FF0_0000_0000_0000)
        let quarter = m < 1.189207115002721 ? 0 : m < 1.4142135623730951 ? 1 : m < 1.6817928305074290 ? 2 : 3
        return max(0, min(bins - 1, 4 * (Int(x.exponent) + 24) + quarter))
    }

    /// The value per joule above which the opportunities so far spend `share` of the budget on an
    /// average day, the recent days weighing more, with the other rules' fallback `start` before
    /// any came.
    public func read(share: Double, start: Double) -> Double {
        guard first != .min else { return start }
        // The days so far, weighed as the opportunities are: h / ln 2 · (1 − 2^(−days / h)).
        let h = Self.halfLifeDays, days = Double(latest - first) / Double(Millis.day)
        let target = share * max(0.25, h / M_LN2 * (1 - exp2(-days / h))) * weight(at: latest)
        var sum = 0.0
        for b in stride(from: Self.bins - 1, through: 0, by: -1) {
            sum += energy[b]
            if sum >= target { return Self.floors[b] }
        }
        return Self.floors[0]
    }

    /// The least value per joule of each range: a table, not a power of two at each reading.
    static let floors = (0..<bins).map { exp2(lowestLog2 + Double($0) * step) }

    /// The price now, for a user aiming at `share` of the daily budget.
    package mutating func price(_ view: UserView, share: Double) -> Double {
        let today = view.localDay
        if today != day {
            day = today
            spent = 0
        }
        // The rule's own fetches: those an app's pushes started are not its to pace, and where
        // they spent much of the budget, counting them held the rule near silent at small shares.
        let energyShare = Double(view.policyEnergyToday) / Double(max(1, view.energyBudget))
        let cellular = Double(view.policyCellularToday) / Double(max(1, view.cellularBudget))
        spent = max(spent, energyShare, cellular)
        // Read anew each quarter-hour: the opportunities of one moment barely move a day's.
        if cached.isNaN || view.now.millis >= readAt + 15 * Millis.minute {
            cached = read(share: share, start: view.scenario.minRescuesPerJoule)
            readAt = view.now.millis
        }
        // Read before the allowance's call: as its argument, the mutating read made that call copy the pacing.
        let elapsedShare = elapsed(view)
        let ahead = spent / share - allowance(today: today, elapsed: elapsedShare)
        // The same as `cached * max(1, exp(guardRate * ahead))`, without an exponential on the
        // days the user is not ahead (most moments: it showed in profiles of a replay).
        return ahead > 0 ? cached * exp(Self.guardRate * ahead) : cached
    }

    /// How much of the day's share the user may have spent by now: the share of a usual day's
    /// demand that has come (`elapsed`), or, on a day busier than the user's average so far, its
    /// opens over the average day's. A busy day is where the rescues are, and a guard that held
    /// it to a usual day's spending left them to the quiet days (Benchmarks/HISTORY.md).
    func allowance(today: Int64, elapsed: Double) -> Double {
        guard openDays > 1, openDay == today else { return elapsed }
        return max(elapsed, opensToday * (openDays - 1) / max(1, demandTotal - opensToday))
    }

    /// The share of the user's usual daily demand that comes before the end of now's quarter-hour.
    mutating func elapsed(_ view: UserView) -> Double {
        let local = LocalTime.floorMod(view.now.millis + Int64(view.offsetMinutes) * Millis.minute, Millis.day)
        let quarter = Int(local / (15 * Millis.minute))
        // Anew with the price, each quarter-hour: one open barely moves a day's profile.
        if elapsedTotal != demandTotal && (elapsedTotal < 0 || view.now.millis >= profiledAt + 15 * Millis.minute) {
            profiledAt = view.now.millis
            // An even day, one open's worth, until the user's own opens outweigh it.
            let from = elapsedTotal < 0 ? 0 : movedFrom
            var sum = elapsedBefore[from]
            for q in from..<96 {
                elapsedBefore[q] = sum
                sum += demand[q] + 1.0 / 96
            }
            elapsedBefore[96] = sum
            elapsedTotal = demandTotal
            movedFrom = 96
        }
        return elapsedBefore[quarter + 1] / elapsedBefore[96]
    }
}



