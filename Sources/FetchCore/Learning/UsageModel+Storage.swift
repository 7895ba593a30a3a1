extension UsageModel {
    /// The model as storable records: one for the user, one per app, keyed by app name (ids
    /// are per run). A user-app record is 208 floats (time-of-week bins and gaps
    /// between opens) plus a few counts and its successors; the user record holds the per-bin sessions,
    /// screen share and plug-ins (Benchmarks' model-bytes threshold holds the measured size).
    public func records(appName: (Int32) -> String) -> (user: [UInt8], apps: [(name: String, bytes: [UInt8])]) {
        var u = ModelWriter()
        u.int(ModelBytes.version)
        u.floats(sessions)
        u.float(sessionTotal)
        u.floats(exposure)
        u.floats(today)
        u.int(todayIndex)
        u.float(screenSessions)
        u.float(plugs)
        u.floats(plugBins)
        for v in [sessionStart, sessionByScreen ? 1 : 0, Int64(events), Int64(sessionsRevision), reference, lastSlot, lastOpenTime, lastScreenOn, lastPlug] { u.int(v) }
        u.string(lastOpenApp < 0 ? "" : appName(lastOpenApp))
        u.int(Int64(sessionApps.count))
        for a in sessionApps { u.string(appName(a)) }
        u.int(Int64(appsAfterPlug.count))
        for a in appsAfterPlug { u.string(appName(a)) }
        u.int(Int64(recentOpens.count))
        for o in recentOpens { u.string(appName(o.app)); u.int(o.time) }
        let apps = self.apps.keys.map { id -> (name: String, bytes: [UInt8]) in
            let h = self.apps[id]!
            var w = ModelWriter()
            w.int(ModelBytes.version)
            w.floats(h.opens)
            for f in [h.sessionOpens, h.allOpens, h.late, h.early, h.afterPlug] { w.float(f) }
            w.int(h.lastOpen)
            w.int(Int64(h.openCount))
            w.int(Int64(h.successors.count))
            for s in h.successors { w.string(appName(s.app)); w.float(s.weight) }
            w.floats(h.gaps.indices.map { h.gaps[$0] })
            return (appName(id), w.bytes)
        }
        return (u.bytes, apps)
    }

    /// A model from its records; `appID` interns app names in the run's table.
    package init(user: [UInt8], apps: [(name: String, bytes: [UInt8])], appID: (String) -> Int32) throws(ModelBytes.Corrupt) {
        var r = ModelReader(user)
        guard try r.int() == ModelBytes.version else { throw ModelBytes.Corrupt() }
        sessions = try r.floats(count: Self.bins)
        sessionsByDay = Self.daySums(sessions)
        sessionTotal = try r.float()
        exposure = try r.floats(count: Self.bins)
        today = try r.floats(count: Self.binsPerDay)
        todayIndex = try r.int()
        screenSessions = try r.float()
        plugs = try r.float()
        plugBins = try r.floats(count: Self.bins)
        sessionStart = try r.int()
        sessionByScreen = try r.int() != 0
        events = Int(try r.int())
        sessionsRevision = Int(try r.int())
        reference = try r.int()
        lastSlot = try r.int()
        lastOpenTime = try r.int()
        lastScreenOn = try r.int()
        lastPlug = try r.int()
        let last = try r.string()
        lastOpenApp = last.isEmpty ? -1 : appID(last)
        let n = try r.int()
        guard n >= 0 && n <= 100_000 else { throw ModelBytes.Corrupt() }
        for _ in 0..<n { sessionApps.append(appID(try r.string())) }
        let plugged = try r.int()
        guard plugged >= 0 && plugged <= 100_000 else { throw ModelBytes.Corrupt() }
        for _ in 0..<plugged { appsAfterPlug.append(appID(try r.string())) }
        let recent = try r.int()
        guard recent >= 0 && recent <= Int64(Self.maxRecentOpens) else { throw ModelBytes.Corrupt() }
        for _ in 0..<recent { recentOpens.append(RecentOpen(app: appID(try r.string()), time: try r.int())) }
        for (name, bytes) in apps {
            var a = ModelReader(bytes)
            guard try a.int() == ModelBytes.version else { throw ModelBytes.Corrupt() }
            var h = AppHabit()
            h.opens = try a.floats(count: Self.bins)
            h.opensByDay = Self.daySums(h.opens)
            h.sessionOpens = try a.float()
            h.allOpens = try a.float()
            h.late = try a.float()
            h.early = try a.float()
            h.afterPlug = try a.float()
            h.lastOpen = try a.int()
            h.openCount = Int(try a.int())
            let count = try a.int()
            guard count >= 0 && count <= Int64(Self.maxSuccessors) else { throw ModelBytes.Corrupt() }
            for _ in 0..<count { h.successors.append(AppHabit.Successor(app: appID(try a.string()), weight: try a.float())) }
            h.gaps = SIMD16(try a.floats(count: h.gaps.scalarCount))
            self.apps[appID(name)] = h
        }
        findBinsWithOpens()
    }
}
