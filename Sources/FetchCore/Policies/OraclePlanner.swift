/// The oracle's plan for the rest of one local day (see ``OraclePolicy``).
struct OraclePlanner {
    struct Entry {
        var time: Int64
        var app: Int32
    }

    private struct Candidate {
        var time: Int64
        var app: Int32
        var energy: Int64
        var cellularBytes: Int64
    }

    let view: UserView

    func plan() -> [Entry] {
        let now = view.now.millis, end = view.dayEnd
        var context = view.context
        var timeline: [(start: Int64, context: DeviceContext)] = [(now, context)]
        var opens: [(time: Int64, app: Int32)] = []
        for e in view.future {
            let t = e.time.millis
            if t >= end { break }
            if e.kind == .open { opens.append((t, e.app)) } else {
                context.apply(e)
                if timeline.last!.start == t { timeline[timeline.count - 1].context = context } else { timeline.append((t, context)) }
            }
        }
        let candidates = rescues(of: opens, timeline: timeline, now: now)
        return affordable(candidates).map { Entry(time: $0.time, app: $0.app) }
    }

    /// One fetch for each open that would be stale with no background fetch.
    private func rescues(of opens: [(time: Int64, app: Int32)],
                         timeline: [(start: Int64, context: DeviceContext)], now: Int64) -> [Candidate] {
        var refreshed: [Int32: Int64] = [:]
        var updates: [Int32: UpdateProcess] = [:]
        var out: [Candidate] = []
        for (to, app) in opens {
            let settings = view.settings(app)
            let r = refreshed[app] ?? (view.app(app)?.refreshedAt ?? .min)
            refreshed[app] = to
            if settings.interval == .never { continue }
            var lower: Int64
            switch settings.content {
            case .window(let w):
                if r != .min && to - r <= w { continue }
                lower = to - w
            case .updates:
                guard var p = updates[app] ?? view.contentUpdates(app) else { continue }
                let u = p.advance(to: to)
                updates[app] = p
                if r != .min && r >= u { continue }
                lower = u
            }
            lower = max(lower, now)
            let latest = max(to - settings.profile.durationP95 - Millis.second, lower)
            guard latest < to, let at = Self.latestAllowed(timeline, from: lower, to: latest) else { continue }
            let network = Self.context(timeline, at: at).network
            let p = settings.profile
            let energy = view.scenario.energy.fetchMicroJ(ms: p.durationMedian, bytes: p.bytes, network: network, sharedWake: false)
            out.append(Candidate(time: at, app: app, energy: energy, cellularBytes: network == .cellular ? p.bytes : 0))
        }
        return out
    }

    /// The cheapest candidates whose expected cost fits what is left of the day's budgets,
    /// keeping the engine's worst-case reserve for one more fetch; then custom intervals.
    private func affordable(_ candidates: [Candidate]) -> [Candidate] {
        let s = view.scenario
        let reserve = s.energy.fetchMicroJ(ms: Millis.deadline, bytes: s.defaultApp.profile.bytes, network: .cellular, sharedWake: false)
        var energyLeft = view.energyBudget - view.energyUsedToday - reserve
        var cellularLeft = view.cellularBudget - view.cellularUsedToday - s.defaultApp.profile.bytes
        var kept: [Candidate] = []
        for c in candidates.sorted(by: { ($0.energy, $0.time) < ($1.energy, $1.time) }) {
            guard c.energy <= energyLeft, c.cellularBytes <= cellularLeft else { continue }
            energyLeft -= c.energy
            cellularLeft -= c.cellularBytes
            kept.append(c)
        }
        kept.sort { ($0.time, $0.app) < ($1.time, $1.app) }
        var lastStart: [Int32: Int64] = [:]
        return kept.filter { c in
            let gap = view.settings(c.app).interval.minimumGap
            let last = lastStart[c.app] ?? (view.app(c.app)?.lastFetchStart ?? .min)
            if gap > 0 && last != .min && c.time - last < gap { return false }
            lastStart[c.app] = c.time
            return true
        }
    }

    /// The device context in force at `t`.
    static func context(_ timeline: [(start: Int64, context: DeviceContext)], at t: Int64) -> DeviceContext {
        var c = timeline[0].context
        for seg in timeline where seg.start <= t { c = seg.context }
        return c
    }

    /// The latest moment in `lo...hi` at which the context allows a fetch, nil when none does.
    static func latestAllowed(_ timeline: [(start: Int64, context: DeviceContext)], from lo: Int64, to hi: Int64) -> Int64? {
        guard var i = timeline.lastIndex(where: { $0.start <= hi }) else { return nil }
        var candidate = hi
        while i >= 0 && candidate >= lo {
            if timeline[i].context.blocker == nil { return candidate }
            candidate = timeline[i].start - 1
            i -= 1
        }
        return nil
    }
}
