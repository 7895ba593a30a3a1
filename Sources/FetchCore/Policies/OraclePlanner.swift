/// The oracle's plan for the rest of one local day (see ``OraclePolicy``).
///
/// It knows what the engine will do: the opens and context changes to come, when the radio is
/// awake anyway, and the seeded outcome of a fetch at any moment (``FetchDraw/at(_:seed:userHash:appHash:profile:sigma:hasNewData:deadline:)``).
/// So every fetch it plans succeeds, finishes before its open, and costs what it planned.
///
/// Without the draws (`knowsDraws` false, `oracle:opens`) it plans every fetch as the profile's
/// typical one: it allows the 95th-percentile duration before the open and counts the median's
/// energy, and the engine's draws decide the rest.
struct OraclePlanner {
    struct Entry {
        var time: Int64
        var app: Int32
    }

    /// An open that would be stale with no background fetch, and when a fetch for it may start.
    private struct Need {
        var app: Int32
        var open: Int64
        var from: Int64
        /// Its cheapest options without the planned fetches' wakes, cheapest first.
        var options: [Option] = []
    }

    /// A fetch the oracle can make: when, what it runs, what it costs and what the engine will
    /// reserve against the budgets before letting it start.
    private struct Option {
        var time: Int64
        var app: Int32
        var runMs: Int64
        var network: Network
        var energy: Int64
        var cellularBytes: Int64
        var worstEnergy: Int64
        var worstBytes: Int64

        /// Cheaper first; between equals, less cellular data, then the later start.
        func isCheaper(than o: Option) -> Bool {
            (energy, cellularBytes, -time) < (o.energy, o.cellularBytes, -o.time)
        }
    }

    /// When the radio is awake anyway: after a wake event, or after a planned fetch, on one network.
    private struct Span {
        var from: Int64
        var until: Int64
        var network: Network
    }

    let view: UserView
    let knowsDraws: Bool
    private var timeline: [(start: Int64, context: DeviceContext)] = []
    private var wakes: [Span] = []
    private var maxTail: Int64 = 0

    init(view: UserView, knowsDraws: Bool = true) {
        self.view = view
        self.knowsDraws = knowsDraws
    }

    mutating func plan() -> [Entry] {
        let now = view.now.millis, end = view.dayEnd
        var context = view.context
        timeline = [(now, context)]
        var opens: [(time: Int64, app: Int32)] = []
        var changes: [Int64] = []
        let energy = view.scenario.energy
        maxTail = max(energy.wifi.tail, energy.cellular.tail)
        for e in view.future {
            let t = e.time.millis
            if t >= end { break }
            if e.kind == .open {
                opens.append((t, e.app))
            } else {
                let before = context.network
                context.apply(e)
                if context.network != before { changes.append(t) }
                // Only the network and what forbids fetching matter here: other changes start no stretch.
                let last = timeline[timeline.count - 1]
                if last.start == t || (last.context.network == context.network && last.context.blocker == context.blocker) {
                    timeline[timeline.count - 1].context = context
                } else {
                    timeline.append((t, context))
                }
            }
            // The engine wakes the radio at every wake opportunity and open (UserSimulator.wakeRadio).
            if (e.kind.isWakeOpportunity || e.kind == .open) && context.network != .none {
                wakes.append(Span(from: t, until: t + energy.radio(context.network).tail, network: context.network))
            }
        }
        // A network change puts the radio to sleep; a moment at the change still precedes it.
        var c = 0
        for i in wakes.indices {
            while c < changes.count && changes[c] <= wakes[i].from { c += 1 }
            if c < changes.count { wakes[i].until = min(wakes[i].until, changes[c]) }
        }
        var needs = self.needs(opens, now: now)
        for i in needs.indices { needs[i].options = options(for: needs[i], selected: [], start: [], everywhere: true) }
        needs.removeAll { $0.options.isEmpty }
        needs.sort { ($0.options[0].energy, $0.open) < ($1.options[0].energy, $1.open) }
        var selected: [Option] = []
        for need in needs {
            // The planned fetches' wakes may offer cheaper moments: only those are tried again.
            for o in options(for: need, selected: selected, start: need.options, everywhere: false) {
                if let at = insertion(o, into: selected) {
                    selected.insert(o, at: at)
                    break
                }
            }
        }
        return selected.map { Entry(time: $0.time, app: $0.app) }
    }

    /// The day's opens that would be stale with no background fetch, with the earliest start
    /// that would make each fresh.
    private func needs(_ opens: [(time: Int64, app: Int32)], now: Int64) -> [Need] {
        var refreshed: [Int32: Int64] = [:]
        var updates: [Int32: UpdateProcess] = [:]
        var out: [Need] = []
        for (to, app) in opens {
            let settings = view.settings(app)
            let r = refreshed[app] ?? (view.app(app)?.refreshedAt ?? .min)
            refreshed[app] = to
            if settings.interval == .never { continue }
            var lastUpdate = Int64.min
            if case .updates = settings.content {
                guard var p = updates[app] ?? view.contentUpdates(app) else { continue }
                lastUpdate = p.advance(to: to)
                updates[app] = p
            }
            let lower = settings.content.freshFrom(open: to, lastUpdate: lastUpdate)
            if r != .min && r >= lower { continue }  // fresh without a background fetch
            let from = max(lower, now + 1)
            if from < to { out.append(Need(app: app, open: to, from: from)) }
        }
        return out
    }

    /// The cheapest few moments for a fetch that makes `need`'s open fresh, cheapest first,
    /// beginning with `start`.
    ///
    /// The moments tried `everywhere`: the last seconds before the open, a coarse sweep of the
    /// whole span, the ends of the stretches whose context allows a fetch, and moments when the
    /// radio is awake after a wake event; and always, moments during and after a planned fetch.
    private func options(for need: Need, selected: [Option], start: [Option], everywhere: Bool) -> [Option] {
        let keep = 3
        let settings = view.settings(need.app)
        let costs = view.app(need.app)?.costs ?? FetchCosts(settings: settings, energy: view.scenario.energy)
        let appHash = view.catalog.hash(need.app)
        var kept = start
        forEachMoment(for: need, selected: selected, everywhere: everywhere) { s in
            guard s >= need.from, s < need.open, !kept.contains(where: { $0.time == s }) else { return }
            let context = self.context(before: s)
            guard context.blocker == nil else { return }
            let n = context.network
            let shared = awake(at: s, network: n, selected: selected)
            // No draw can make this moment cheaper than the wake and the payload: skip the draw
            // when the options kept already cost less.
            if kept.count == keep,
               view.scenario.energy.fetchMicroJ(ms: 0, bytes: settings.profile.bytes, network: n, sharedWake: shared) >= kept[keep - 1].energy {
                return
            }
            let p = settings.profile
            let (runMs, energyMs, bytes): (Int64, Int64, Int64)
            if knowsDraws {
                let draw = FetchDraw.at(s, seed: view.seed, userHash: view.userHash, appHash: appHash, profile: p,
                                        sigma: costs.sigma, hasNewData: true)
                guard draw.result.refreshes else { return }
                (runMs, energyMs, bytes) = (draw.runMs, draw.runMs, draw.bytes)
            } else {
                (runMs, energyMs, bytes) = (min(p.durationP95, Millis.deadline), min(p.durationMedian, Millis.deadline), p.bytes)
            }
            guard s + runMs <= need.open else { return }
            let o = Option(time: s, app: need.app, runMs: runMs, network: n,
                           energy: view.scenario.energy.fetchMicroJ(ms: energyMs, bytes: bytes, network: n, sharedWake: shared),
                           cellularBytes: n == .cellular ? bytes : 0,
                           worstEnergy: costs.worst(network: n, sharedWake: shared), worstBytes: costs.worstBytes)
            let at = kept.firstIndex { o.isCheaper(than: $0) } ?? kept.count
            if at < keep {
                kept.insert(o, at: at)
                if kept.count > keep { kept.removeLast() }
            }
        }
        return kept
    }

    /// Calls `probe` with each moment worth trying for `need`, in order (see `options`).
    private func forEachMoment(for need: Need, selected: [Option], everywhere: Bool, _ probe: (Int64) -> Void) {
        func probeSpan(_ span: Span) {
            let width = max(1, span.until - span.from - 1)
            for k in 0..<6 { probe(span.from + 1 + width * Int64(k) / 5) }
        }
        if everywhere {
            // Moments when the radio is awake anyway first: they are the cheap ones.
            var seen = 0
            var w = Self.countEarlier(wakes) { $0.from < need.open } - 1
            while w >= 0 && seen < 16 && wakes[w].from + maxTail >= need.from {
                if wakes[w].until > need.from {
                    seen += 1
                    probeSpan(wakes[w])
                }
                w -= 1
            }
            let step = Millis.second / 2
            for k in 1...16 { probe(need.open - Int64(k) * step) }
            let sweep = max(Millis.minute, (need.open - need.from) / 24)
            for k in 0..<24 { probe(need.open - 8 * Millis.second - Int64(k) * sweep) }
            // The last moments of each stretch that allows a fetch (a moment at a change still sees the old context).
            var boundaries = 0
            var i = timeline.count - 1
            while i > 0 && boundaries < 16 {
                let start = timeline[i].start
                i -= 1
                if start >= need.open { continue }
                if start <= need.from { break }
                boundaries += 1
                for k in 0..<4 { probe(start - Int64(k) * step) }
            }
        }
        var j = Self.countEarlier(selected) { $0.time < need.open } - 1
        var seen = 0
        while j >= 0 && seen < 16 && selected[j].time + Millis.deadline + maxTail >= need.from {
            let o = selected[j]
            let span = Span(from: o.time, until: o.time + o.runMs + view.scenario.energy.radio(o.network).tail, network: o.network)
            if span.until > need.from {
                seen += 1
                probeSpan(span)
            }
            j -= 1
        }
    }

    /// How many leading elements of `items` satisfy `isEarlier` (all that do come first): a
    /// binary search over events, stretches and planned fetches kept in time order.
    private static func countEarlier<T>(_ items: [T], _ isEarlier: (T) -> Bool) -> Int {
        var lo = 0, hi = items.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isEarlier(items[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether the radio is awake on `network` at `s` before anything else happens then.
    private func awake(at s: Int64, network: Network, selected: [Option]) -> Bool {
        var i = Self.countEarlier(wakes) { $0.from < s } - 1
        while i >= 0 && wakes[i].from >= s - maxTail {
            if wakes[i].until >= s && wakes[i].network == network { return true }
            i -= 1
        }
        let tail = view.scenario.energy.radio(network).tail
        var j = Self.countEarlier(selected) { $0.time < s }
        while j > 0 {
            j -= 1
            let o = selected[j]
            if o.time + Millis.deadline + maxTail < s { break }
            // A network change since that fetch would have put the radio to sleep.
            if o.network == network && o.time + o.runMs + tail >= s && !leavesNetwork(network, from: o.time, to: s) { return true }
        }
        return false
    }

    /// Whether the device is off `network` at some moment in `[a, b)` (events at `a` included).
    private func leavesNetwork(_ network: Network, from a: Int64, to b: Int64) -> Bool {
        var i = timeline.count - 1
        while i >= 0 && timeline[i].start >= b { i -= 1 }
        while i >= 0 && timeline[i].start >= a {
            if timeline[i].context.network != network { return true }
            i -= 1
        }
        return false
    }

    /// Where `o` goes in the plan, nil when the engine would refuse it or a fetch after it:
    /// the same app still running or within its interval, or a budget that cannot hold the
    /// worst case the engine reserves at each start.
    private func insertion(_ o: Option, into selected: [Option]) -> Int? {
        let interval = view.settings(o.app).interval
        if let app = view.app(o.app), !app.intervalPermits(at: o.time) { return nil }
        for g in selected where g.app == o.app {
            let (a, b) = g.time <= o.time ? (g, o) : (o, g)
            if a.time + a.runMs > b.time || !interval.permits(start: b.time, after: a.time) { return nil }
        }
        let at = selected.firstIndex { ($0.time, $0.app) > (o.time, o.app) } ?? selected.count
        var energy = view.energyUsedToday, cellular = view.cellularUsedToday
        for i in 0...selected.count {
            let f = i < at ? selected[i] : i == at ? o : selected[i - 1]
            if energy + f.worstEnergy > view.energyBudget { return nil }
            if f.network == .cellular && cellular + f.worstBytes > view.cellularBudget { return nil }
            energy += f.energy
            cellular += f.cellularBytes
        }
        return at
    }

    /// The device context a moment at `t` sees: events at `t` itself come after it.
    private func context(before t: Int64) -> DeviceContext {
        timeline[max(0, Self.countEarlier(timeline) { $0.start < t } - 1)].context
    }
}
