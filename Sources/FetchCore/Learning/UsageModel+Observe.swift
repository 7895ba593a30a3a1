extension UsageModel {
    /// Learns from one log event of the user, seen at the user's UTC offset.
    public mutating func observe(_ e: UsageEvent) {
        events += 1
        let t = e.time.millis
        let w = weight(at: t)
        countSlots(until: t, offsetMinutes: Int(e.offsetMinutes), weight: w)
        switch e.kind {
        case .screenOn:
            startSession(at: t, offsetMinutes: Int(e.offsetMinutes), byScreen: true, weight: w)
            lastScreenOn = t
        case .plugged:
            plugs += w
            plugBins[Self.bin(slot: Self.slot(t, offsetMinutes: Int(e.offsetMinutes)))] += w
            lastPlug = t
            appsAfterPlug.removeAll(keepingCapacity: true)
        case .open:
            open(e.app, at: t, offsetMinutes: Int(e.offsetMinutes), weight: w)
        default:
            break
        }
    }

    /// Counts the quarter-hours the clock has entered as observed.
    private mutating func countSlots(until t: Int64, offsetMinutes: Int, weight w: Float) {
        let slot = Self.slot(t, offsetMinutes: offsetMinutes)
        if lastSlot == .min || slot <= lastSlot {
            if lastSlot == .min { exposure[Self.bin(slot: slot)] += w }  // the very first event
            lastSlot = max(lastSlot, slot)
            return
        }
        // A gap of weeks adds each bin at most twice: the log was not observing then anyway.
        let week = Int64(7 * Self.binsPerDay)
        for s in max(lastSlot + 1, slot - 2 * week + 1)...slot { exposure[Self.bin(slot: s)] += w }
        lastSlot = slot
    }

    private mutating func startSession(at t: Int64, offsetMinutes: Int, byScreen: Bool, weight w: Float) {
        sessionStart = t
        sessionByScreen = byScreen
        sessionsRevision = events
        sessionApps.removeAll(keepingCapacity: true)
        let slot = Self.slot(t - Self.prefetchLead, offsetMinutes: offsetMinutes)
        sessions[Self.bin(slot: slot)] += w
        sessionTotal += w
        Self.sumDay(of: Self.bin(slot: slot), sessions, into: &sessionsByDay)
        let day = LocalTime.floorDiv(slot, Int64(Self.binsPerDay))
        if day != todayIndex {
            todayIndex = day
            for i in today.indices { today[i] = 0 }
        }
        today[Int(LocalTime.floorMod(slot, Int64(Self.binsPerDay)))] += w
        if byScreen { screenSessions += w }
    }

    private mutating func open(_ app: Int32, at t: Int64, offsetMinutes: Int, weight w: Float) {
        let quiet = lastOpenTime == .min || t - lastOpenTime > Self.sessionGap
        let screenQuiet = lastScreenOn == .min || t - lastScreenOn > Self.sessionGap
        if sessionStart == .min || (quiet && screenQuiet) {
            startSession(at: t, offsetMinutes: offsetMinutes, byScreen: false, weight: w)
        }
        let firstInSession = !sessionApps.contains(app)
        if firstInSession { sessionApps.append(app) }
        let bin = Self.bin(slot: Self.slot(sessionStart - Self.prefetchLead, offsetMinutes: offsetMinutes))
        let byScreen = sessionByScreen, late = t - sessionStart >= Self.usableLead
        let afterPlug = lastPlug != .min && t - lastPlug <= Self.sessionGap && !appsAfterPlug.contains(app)
        if afterPlug { appsAfterPlug.append(app) }
        if firstInSession && w > 0 { binsWithOpens.insert(bin) }
        apps.update(app) { habit in
            if firstInSession {
                habit.opens[bin] += w
                Self.sumDay(of: bin, habit.opens, into: &habit.opensByDay)
                habit.sessionOpens += w
                if byScreen {
                    if late { habit.late += w } else { habit.early += w }
                }
            }
            if afterPlug { habit.afterPlug += w }
            if habit.lastOpen != .min && t >= habit.lastOpen {
                let minutes = Float((t - habit.lastOpen) / Millis.minute)
                let bucket = Self.gapBounds.indices.first { minutes < Self.gapBounds[$0] } ?? Self.gapBounds.scalarCount - 1
                habit.gaps[bucket] += w
            }
            habit.allOpens += w
            habit.lastOpen = t
            habit.openCount += 1
        }
        // Each app opened within the successor window before counts this one as following it,
        // once per its open: the chance an app comes soon after another, not only right after.
        recentOpens.removeAll { t - $0.time > Self.successorWindow }
        var counted: [Int32] = []
        for before in recentOpens.reversed() {
            if before.app == app { break }  // the earlier ones were followed by this app already
            if !counted.contains(before.app) && apps.contains(before.app) {
                apps.update(before.app) { $0.follow(with: app, weight: w) }
                counted.append(before.app)
            }
        }
        recentOpens.append(RecentOpen(app: app, time: t))
        if recentOpens.count > Self.maxRecentOpens { recentOpens.removeFirst() }
        lastOpenApp = app
        lastOpenTime = t
    }
}
