import OrderedCollections
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One user's open habits, learned online from the log, event by event, at a cost that does
/// not grow with history.
///
/// Per app: session-first opens per time-of-week bin (96 quarter-hours × weekday/weekend), how often
/// its opens come late enough after screen_on for a fetch started then to finish, which apps
/// follow it, and how long the gaps between its opens last. Per user: sessions and quarter-hours observed per bin. Habits change, so old
/// observations fade with a half-life of five days. Instead of decaying every count at every
/// event, new observations weigh 2^(t/halfLife) more: every estimate is a ratio, so this is the
/// same as decaying old ones, at O(1) per event (counts are rescaled before they overflow).
public struct UsageModel: Sendable, Equatable {
    package static let bins = 192
    public static let binsPerDay = 96
    public static let binLength: Int64 = 15 * Millis.minute
    package static let halfLife: Int64 = 5 * Millis.day
    /// Opens further apart than this, with no screen_on between, start a new session.
    package static let sessionGap: Int64 = 5 * Millis.minute
    /// How long after screen_on an open must come for a fetch started at screen_on to help.
    package static let usableLead: Int64 = 5 * Millis.second
    package static let successorWindow: Int64 = 10 * Millis.minute
    /// Opens (and sessions) are binned at the moment a prefetch for them would start, this much
    /// earlier, so that the quarter-hour bins line up with "fetch now for the opens just ahead".
    package static let prefetchLead: Int64 = 2 * Millis.minute
    package static let maxSuccessors = 6
    /// The upper ends of the buckets of gaps between an app's opens, in minutes; the last
    /// bucket holds every longer gap and is read as spread over the two days after its start.
    package static let gapBounds: SIMD16<Float> = [5, 15, 30, 45, 60, 90, 120, 180, 240, 360, 480, 720, 1080, 1440, 2880, 5760]
    package static let maxRecentOpens = 8

    struct RecentOpen: Sendable, Equatable {
        var app: Int32
        var time: Int64
    }

    public internal(set) var apps = AppHabits()
    /// The bins in which some app has session-first opens (an ``AppHabit/opens`` above 0): a
    /// decision whose stretch of time covers none of them, nor the quarter-hour before one, knows
    /// that ``openProbability(_:from:span:offsetMinutes:smoothed:)`` is 0 for every app without
    /// asking each one (``anyOpens(from:span:offsetMinutes:)``). Kept as opens are counted,
    /// rescaled and read back.
    package internal(set) var binsWithOpens = BinSet()
    /// Weighted session starts per bin …
    package internal(set) var sessions = [Float](repeating: 0, count: bins)
    /// … and in all (kept, not summed, because every decision asks for it) …
    package internal(set) var sessionTotal: Float = 0
    /// … and on each kind of day (`daySums(_:)`: weekdays, weekends), summed again whenever a bin
    /// changes, as a tick asks for it for every app.
    package internal(set) var sessionsByDay = SIMD2<Float>()
    /// Weighted quarter-hours observed per bin.
    package internal(set) var exposure = [Float](repeating: 0, count: bins)
    /// The sessions of the current local day, per quarter-hour, so that pacing can judge today
    /// by the days before it.
    public internal(set) var today = [Float](repeating: 0, count: binsPerDay)
    var todayIndex: Int64 = .min
    /// Weighted plug-ins (charger connected) …
    package internal(set) var plugs: Float = 0
    /// … and per bin, for when the next one is likely (``plugForecast(from:span:offsetMinutes:)``).
    package internal(set) var plugBins = [Float](repeating: 0, count: bins)
    var lastPlug: Int64 = .min
    var appsAfterPlug: OrderedSet<Int32> = []
    /// Weighted sessions that began with screen_on.
    package internal(set) var screenSessions: Float = 0
    package internal(set) var sessionStart: Int64 = .min
    package internal(set) var sessionByScreen = false
    public internal(set) var events = 0
    /// The event count when `sessions` or `today` last changed: caches of sums over them (see
    /// ``DemandCache``) stay valid while it does not move.
    package internal(set) var sessionsRevision = 0
    var reference: Int64 = .min
    var lastSlot: Int64 = .min
    /// The apps opened in the current session, in order: a set, so that a session of many apps
    /// costs each open one lookup, not a scan.
    var sessionApps: OrderedSet<Int32> = []
    var lastOpenApp: Int32 = -1
    /// The opens of the last ``successorWindow``, at most ``maxRecentOpens``.
    var recentOpens: [RecentOpen] = []
    var lastOpenTime: Int64 = .min
    var lastScreenOn: Int64 = .min

    public init() {}

    /// The time-of-week bin of local quarter-hour number `slot` (since 1970-01-01 local).
    @inlinable
    package static func bin(slot: Int64) -> Int {
        let day = LocalTime.floorDiv(slot, Int64(binsPerDay))
        return (LocalTime.weekday(ofDay: day) >= 5 ? binsPerDay : 0) + Int(LocalTime.floorMod(slot, Int64(binsPerDay)))
    }

    /// The quarter-hour before `b` on the same kind of day (the day's last before its first).
    @inline(__always)
    static func before(_ b: Int) -> Int { b % binsPerDay == 0 ? b + binsPerDay - 1 : b - 1 }

    /// How many days of a bin's own observations a prior is worth, at the weight of today's: the
    /// app's share of all sessions for ``sessionProbability(_:at:offsetMinutes:smoothed:)``, and
    /// what the user's sessions there say for the smoothed ``openProbability(_:from:span:offsetMinutes:smoothed:)``.
    static let priorDays: Float = 2

    /// How much of the quarter-hour before a bin's count the bin borrows.
    static let kernel: Float = 0.5

    /// `counts[b]` smoothed with the quarter-hour before it: an open that came at 7:40 on the days
    /// seen may come at 7:50 on the next. Only the one before: the quarter-hour after a bin would
    /// lend its chance earlier, where a fetch comes too soon for the open and the bin's own
    /// chance makes a better-timed one (the symmetric kernel measured no better on the real logs
    /// and moved plans' first fetches ahead of the habit: Benchmarks/HISTORY.md, "Quality").
    @inline(__always)
    static func kernelSum(_ counts: [Float], _ b: Int) -> Float {
        counts[b] + kernel * counts[before(b)]
    }

    /// `counts[b]` as seen, or smoothed (``kernelSum(_:_:)``): the one place a reading chooses.
    @inline(__always)
    static func count(_ counts: [Float], _ b: Int, smoothed: Bool) -> Float {
        smoothed ? kernelSum(counts, b) : counts[b]
    }

    /// The local quarter-hour number of `t`.
    @inlinable
    package static func slot(_ t: Int64, offsetMinutes: Int) -> Int64 {
        LocalTime.floorDiv(t + Int64(offsetMinutes) * Millis.minute, binLength)
    }

    /// The weight of an observation at `t`, rescaling everything when weights grow large.
    mutating func weight(at t: Int64) -> Float {
        if reference == .min { reference = t }
        var w = Float(exp2(Double(t - reference) / Double(Self.halfLife)))
        if w > 1e12 {
            rescale(by: 1 / w)
            reference = t
            w = 1
        }
        return w
    }

    /// The weight of an observation made now, for comparing estimates with priors.
    package func currentWeight(at t: Int64) -> Float {
        reference == .min ? 1 : Float(exp2(Double(t - reference) / Double(Self.halfLife)))
    }

    private mutating func rescale(by f: Float) {
        sessionsRevision = events
        for i in 0..<Self.bins { sessions[i] *= f; exposure[i] *= f; plugBins[i] *= f }
        for i in 0..<Self.binsPerDay { today[i] *= f }
        sessionTotal = sessions.reduce(0, +)
        sessionsByDay = Self.daySums(sessions)
        screenSessions *= f
        plugs *= f
        for id in apps.keys { apps.update(id) { $0.scale(by: f) } }
        findBinsWithOpens()  // a count may have scaled down to 0
    }

    /// `counts` summed over the bins of each kind of day (weekdays, weekends): always added up
    /// afresh and in one order, so that a model read back from its records holds the same sums
    /// as the one that wrote them.
    static func daySums(_ counts: [Float]) -> SIMD2<Float> {
        var sums = SIMD2<Float>()
        sumDay(of: 0, counts, into: &sums)
        sumDay(of: binsPerDay, counts, into: &sums)
        return sums
    }

    /// Adds up afresh the one sum of `daySums(_:)` that bin `b` counts in, after its count changed.
    /// Eight lanes at a time, not by `reduce`: every session-first open sums a day's bins, and a
    /// profile of a replay showed the one-by-one sum.
    static func sumDay(of b: Int, _ counts: [Float], into sums: inout SIMD2<Float>) {
        let kind = b < binsPerDay ? 0 : 1
        sums[kind] = counts.withUnsafeBytes { raw in
            var lanes = SIMD8<Float>()
            let first = kind * binsPerDay * MemoryLayout<Float>.stride, step = 8 * MemoryLayout<Float>.stride
            for offset in stride(from: first, to: first + binsPerDay * MemoryLayout<Float>.stride, by: step) {
                lanes += raw.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            }
            return lanes.sum()
        }
    }

    /// Sets ``binsWithOpens`` from every app's opens.
    mutating func findBinsWithOpens() {
        var found = BinSet()
        for h in apps.values {
            for b in h.opens.indices where h.opens[b] > 0 { found.insert(b) }
        }
        binsWithOpens = found
    }

    /// Calls `body` with each bin that `[t, t + span)` covers, in order, and how many of its
    /// milliseconds the stretch covers.
    @inline(__always)
    static func forEachBin(from t: Int64, span: Int64, offsetMinutes: Int, _ body: (_ bin: Int, _ piece: Int64) -> Void) {
        var start = t
        let end = t + span
        while start < end {
            let slot = Self.slot(start, offsetMinutes: offsetMinutes)
            let slotEnd = (slot + 1) * Self.binLength - Int64(offsetMinutes) * Millis.minute
            let piece = min(end, slotEnd) - start
            body(Self.bin(slot: slot), piece)
            start += piece
        }
    }
}
