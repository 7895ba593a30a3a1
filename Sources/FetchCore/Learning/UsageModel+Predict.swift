#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UsageModel {
    /// Probability that a session starting at `t` includes an open of `app`: the app's share of
    /// sessions in this time-of-week bin, shrunk toward its share over all bins; `smoothed`,
    /// with the bin read together with the one before it (`kernelSum`).
    package func sessionProbability(_ app: Int32, at t: Int64, offsetMinutes: Int, smoothed: Bool = false) -> Double {
        sessionProbability(app, in: sessionReading(at: t, offsetMinutes: offsetMinutes, smoothed: smoothed))
    }

    /// The user's side of ``sessionProbability(_:at:offsetMinutes:smoothed:)`` at one moment, the
    /// same for every app: read once for the apps of a decision.
    package struct SessionReading: Sendable {
        let time: Int64
        let events: Int
        let smoothed: Bool
        let bin: Int
        let priorWeight: Double
        let started: Float
    }

    /// The session reading at `t` (``SessionReading``), of the model as it is now.
    package func sessionReading(at t: Int64, offsetMinutes: Int, smoothed: Bool) -> SessionReading {
        let b = Self.bin(slot: Self.slot(t - Self.prefetchLead, offsetMinutes: offsetMinutes))
        return SessionReading(time: t, events: events, smoothed: smoothed, bin: b, priorWeight: Double(Self.priorDays * currentWeight(at: t)),
                              started: Self.count(sessions, b, smoothed: smoothed))
    }

    /// ``sessionProbability(_:at:offsetMinutes:smoothed:)`` from a reading of this model at the moment.
    package func sessionProbability(_ app: Int32, in r: SessionReading) -> Double {
        guard let h = apps[app], sessionTotal > 0 else { return 0 }
        let prior = Double(h.sessionOpens / sessionTotal)
        let opens = Self.count(h.opens, r.bin, smoothed: r.smoothed)
        return min(1, (Double(opens) + r.priorWeight * prior) / (Double(r.started) + r.priorWeight))
    }

    /// Share of the app's screen-started session opens that come late enough after screen_on
    /// for a fetch started then to finish; 0.5 before any evidence.
    package func lateShare(_ app: Int32) -> Double {
        guard let h = apps[app] else { return 0.5 }
        return (Double(h.late) + 0.5) / (Double(h.late + h.early) + 1)
    }

    /// Probability that `app` is opened within ``sessionGap`` after the charger is plugged in.
    package func plugProbability(_ app: Int32) -> Double {
        guard plugs > 0, let h = apps[app] else { return 0 }
        return min(1, Double(h.afterPlug / plugs))
    }

    /// Whether this user's log shows screen events (then screen_on is the cheap moment to fetch).
    package var hasScreenEvents: Bool { screenSessions > 0 }

    /// Whether an open at `t` began a session with no screen_on before it: the open that stands
    /// for an unlock the log did not record.
    package func opensSession(at t: Int64) -> Bool { sessionStart == t && !sessionByScreen }

    /// Probability that `next` is the next app opened after `app`, within ten minutes.
    package func successorProbability(_ next: Int32, after app: Int32) -> Double {
        guard let h = apps[app], h.allOpens > 0,
              let s = h.successors.first(where: { $0.app == next }) else { return 0 }
        return min(1, Double(s.weight / h.allOpens))
    }

    /// Probability that `app` is opened again within `[t, t + span]`, given that it has not been
    /// since its last open: the share of its past gaps between opens that ended in that stretch
    /// of time since the last open, among those that lasted at least until `t`, each bucket's
    /// gaps spread evenly over it. A little prior keeps an app with few gaps from certainty.
    package func reopenProbability(_ app: Int32, at t: Int64, within span: Int64) -> Double {
        reopenRhythm(app, at: t, span: span)?.chance ?? 0
    }

    /// The re-open rhythm of `app` as seen from `t` and its chance within `span`, for
    /// ``reopenProbability(_:at:within:)`` over one span or several; nil before its first open
    /// or when `t` is before its last.
    func reopenRhythm(_ app: Int32, at t: Int64, span: Int64) -> ReopenRhythm? {
        guard let (gaps, last) = apps.rhythm(app), last != .min, t >= last else { return nil }
        return ReopenRhythm(gaps: gaps, since: t - last, weight: currentWeight(at: t), span: span)
    }

    /// Probability that a fetch started within `[t, t + span]` is the prefetch of a session-first
    /// open of the app, i.e. that such an open comes within `[t, t + span]` shifted by
    /// ``prefetchLead``: for each quarter-hour bin the span covers, the share of observed days
    /// with such an open there, spread evenly over the bin.
    ///
    /// `smoothed`, as the adaptive policy weighs it: each bin read together with the one before
    /// it (`kernelSum`), and shrunk by `priorDays` toward what the user's other habits say of
    /// it: the sessions the user starts there times the app's share of the sessions of that kind
    /// of day (weekday or weekend). So an app the user has not yet opened at a time when they do
    /// open apps has a small chance there, which a fetch pays for only at a low price; where the
    /// user opens no app (in the bin or the one before), the chance stays 0
    /// (``anyOpens(from:span:offsetMinutes:)``). A decision that weighs every app reads the
    /// user's side once: ``stretch(from:span:offsetMinutes:smoothed:)``, then ``openProbability(_:over:)``.
    package func openProbability(_ app: Int32, from t: Int64, span: Int64, offsetMinutes: Int, smoothed: Bool = false) -> Double {
        openProbability(app, over: stretch(from: t, span: span, offsetMinutes: offsetMinutes, smoothed: smoothed))
    }

    /// Whether some app has opens in a bin that `[t, t + span)` covers, or in the bin before one
    /// (which the smoothed ``openProbability(_:from:span:offsetMinutes:smoothed:)`` reads too):
    /// when not, every app's chance of an open there is 0, smoothed or not.
    package func anyOpens(from t: Int64, span: Int64, offsetMinutes: Int) -> Bool {
        stretch(from: t, span: span, offsetMinutes: offsetMinutes, smoothed: false).anyActive
    }

    /// The share of the day's sessions that usually come before `t` (local time), for pacing:
    /// from the days before today (today's own sessions would make the morning look heavier),
    /// from the other kind of day when this kind has none yet, else from the clock.
    package func demandElapsed(at t: Int64, offsetMinutes: Int) -> Double {
        var cache = DemandCache()
        return demandElapsed(at: t, offsetMinutes: offsetMinutes, cache: &cache)
    }

    /// ``demandElapsed(at:offsetMinutes:)`` with the day's running sums kept in `cache` until
    /// the model changes: a decision asks at every tick, and a day has 96 bins to add up.
    package func demandElapsed(at t: Int64, offsetMinutes: Int, cache: inout DemandCache) -> Double {
        let slot = Self.slot(t, offsetMinutes: offsetMinutes)
        let inDay = Int(LocalTime.floorMod(slot, Int64(Self.binsPerDay)))
        let own = Self.bin(slot: slot) - inDay
        let isToday = LocalTime.floorDiv(slot, Int64(Self.binsPerDay)) == todayIndex
        // Sessions of the days before today in bin `i` of the day type starting at `base`.
        func count(_ base: Int, _ i: Int) -> Double {
            Double(sessions[base + i]) - (isToday && base == own ? Double(today[i]) : 0)
        }
        func sums(_ base: Int) -> Int {
            let key = DemandCache.Key(revision: sessionsRevision, todayIndex: todayIndex, weekend: base != 0,
                                      withoutToday: isToday && base == own)
            let k = base == 0 ? 0 : 1
            if cache.keys[k] != key { cache.fill(k, key: key, sessions: sessions[base..<base + Self.binsPerDay], today: today) }
            return k
        }
        var base = own
        var k = sums(base)
        if cache.sums[k][Self.binsPerDay] <= 0 {
            base = own == 0 ? Self.binsPerDay : 0
            k = sums(base)
        }
        let day = cache.sums[k][Self.binsPerDay]
        guard day > 0 else { return Double(inDay) / Double(Self.binsPerDay) }
        let past = cache.sums[k][inDay]
        let within = Double(LocalTime.floorMod(t + Int64(offsetMinutes) * Millis.minute, Self.binLength)) / Double(Self.binLength)
        return min(1, max(0, (past + within * count(base, inDay)) / day))
    }
}

/// Running sums of sessions per bin of each day type, valid while the model is unchanged: the
/// key holds the model's ``UsageModel/sessionsRevision``, which every change to the sums moves (see
/// ``UsageModel/demandElapsed(at:offsetMinutes:cache:)``). Keep one cache per model.
package struct DemandCache: Sendable {
    struct Key: Equatable {
        var revision: Int
        var todayIndex: Int64
        var weekend: Bool
        var withoutToday: Bool
    }

    /// Weekdays, then weekends; refilled in place, so a warm cache allocates nothing.
    var keys: [Key?] = [nil, nil]
    var sums: [[Double]] = [[], []]

    public init() {}

    /// Running sums of `sessions` (one day type), less `today` for the current day type. The
    /// same additions in the same order as a plain loop: the results are bit for bit the same.
    mutating func fill(_ k: Int, key: Key, sessions: ArraySlice<Float>, today: [Float]) {
        keys[k] = key
        if sums[k].count != sessions.count + 1 { sums[k] = [Double](repeating: 0, count: sessions.count + 1) }
        sums[k].withUnsafeMutableBufferPointer { out in
            sessions.withUnsafeBufferPointer { s in
                today.withUnsafeBufferPointer { d in
                    var running = 0.0
                    for i in 0..<s.count {
                        running += Double(s[i]) - (key.withoutToday ? Double(d[i]) : 0)
                        out[i + 1] = running
                    }
                }
            }
        }
    }
}
