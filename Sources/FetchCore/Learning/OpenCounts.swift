/// The counting baseline's tables for one user: plain counts of what happened, no weights, no
/// decay, no model (``CountsPolicy``).
///
/// Per app: the days with an open in each quarter-hour of the local day, the apps opened next
/// within `successorWindow` after it, and the unlocks (screen_on) followed by an open of it
/// within `followWindow`. Per user: the local days observed and the unlocks. A chance is a
/// count over how often it could have happened, plus one (so one lucky event is not certainty).
public struct OpenCounts: Sendable {
    package static let slotsPerDay = 96
    package static let slotLength: Int64 = 15 * Millis.minute
    /// How soon after an open the next app must come to count as its successor.
    package static let successorWindow: Int64 = 10 * Millis.minute
    /// How soon after a screen_on an open must come to count as following the unlock.
    package static let followWindow: Int64 = 5 * Millis.minute
    /// The successors kept per app (space-saving: a full table gives its lightest place away).
    package static let maxSuccessors = 16
    /// How long after a screen_on an open must come for a fetch started then to have finished.
    package static let usableLead: Int64 = 5 * Millis.second

    /// What the tables hold for one app.
    public struct App: Sendable {
        /// Days with an open in each quarter-hour of the local day.
        package internal(set) var slots = [Int32](repeating: 0, count: OpenCounts.slotsPerDay)
        /// Opens of the app.
        public internal(set) var opens: Int32 = 0
        /// Unlocks followed by an open of the app.
        package internal(set) var afterUnlock: Int32 = 0
        /// The apps opened next, with how often.
        package internal(set) var successors = FollowerCounts(capacity: OpenCounts.maxSuccessors)
        /// The quarter-hours of the current day already counted (a bit each).
        var counted: (UInt64, UInt64) = (0, 0)
        var countedDay: Int64 = .min

    }

    /// By app id (dense, as ids are interned from zero).
    public internal(set) var apps: [App?] = []
    /// Local days with at least one event.
    public internal(set) var days: Int32 = 0
    package internal(set) var unlocks: Int32 = 0
    /// Opens of every app.
    package internal(set) var totalOpens: Int32 = 0
    var day: Int64 = .min
    var lastUnlock: Int64 = .min
    var unlockApps: [Int32] = []
    /// The opens of the last ``successorWindow`` (at most eight).
    var recentOpens: [(app: Int32, time: Int64)] = []

    public init() {}

    package subscript(app: Int32) -> App? {
        Int(app) >= 0 && Int(app) < apps.count ? apps[Int(app)] : nil
    }

    /// Counts one log event of the user.
    public mutating func observe(_ e: UsageEvent) {
        let t = e.time.millis, offset = Int(e.offsetMinutes)
        let today = LocalTime.day(t, offsetMinutes: offset)
        if today != day {
            day = today
            days += 1
        }
        switch e.kind {
        case .screenOn:
            unlocks += 1
            lastUnlock = t
            if !unlockApps.isEmpty { unlockApps.removeAll(keepingCapacity: true) }
        case .open:
            open(e.app, at: t, offsetMinutes: offset)
        default:
            break
        }
    }

    private mutating func open(_ app: Int32, at t: Int64, offsetMinutes: Int) {
        guard app >= 0 else { return }
        totalOpens += 1
        let i = Int(app)
        if i >= apps.count { apps.append(contentsOf: repeatElement(nil, count: i + 1 - apps.count)) }
        if apps[i] == nil { apps[i] = App() }
        let slot = Int(LocalTime.floorMod(LocalTime.floorDiv(t + Int64(offsetMinutes) * Millis.minute, Self.slotLength),
                                          Int64(Self.slotsPerDay)))
        // An open within a few seconds of the unlock comes before any fetch started then could end.
        let afterUnlock = lastUnlock != .min && t - lastUnlock <= Self.followWindow && t - lastUnlock >= Self.usableLead
            && !unlockApps.contains(app)
        if afterUnlock { unlockApps.append(app) }
        apps[i]!.count(slot: slot, day: day, afterUnlock: afterUnlock)
        // Each app opened within the window before counts this one as following it, once per its
        // open: how often an app comes soon after another, not only right after.
        recentOpens.removeAll { t - $0.time > Self.successorWindow }
        var credited: [Int32] = []
        for before in recentOpens.reversed() {
            if before.app == app { break }  // the earlier ones were followed by this app already
            if !credited.contains(before.app) {
                apps[Int(before.app)]!.follow(with: app)
                credited.append(before.app)
            }
        }
        recentOpens.append((app, t))
        if recentOpens.count > 8 { recentOpens.removeFirst() }
    }

    /// Chance that `app` is opened within `[t, t + span)`: for each quarter-hour the stretch
    /// covers, the share of days with an open there, spread evenly over it.
    package func slotChance(_ app: Int32, from t: Int64, span: Int64, offsetMinutes: Int) -> Double {
        let i = Int(app)
        guard i >= 0 && i < apps.count else { return 0 }
        // Read in place (a copy of the app's tables retained them at every chance), and the
        // quarter-hour found by division once: each piece after the first starts the next one.
        return apps[i]?.slots.withUnsafeBufferPointer { slots in
            var none = 1.0, start = t
            let end = t + span, offset = Int64(offsetMinutes) * Millis.minute, days = Double(days + 1)
            var local = LocalTime.floorDiv(start + offset, Self.slotLength)
            var slot = Int(LocalTime.floorMod(local, Int64(Self.slotsPerDay)))
            while start < end {
                let piece = min(end, (local + 1) * Self.slotLength - offset) - start
                let c = slots[slot]
                if c > 0 { none *= 1 - Double(c) / days * Double(piece) / Double(Self.slotLength) }
                start += piece
                local += 1
                slot = slot == Self.slotsPerDay - 1 ? 0 : slot + 1
            }
            return 1 - none
        } ?? 0
    }

    /// Chance that `next` is the next app opened after an open of `app`.
    package func successorChance(_ next: Int32, after app: Int32) -> Double {
        let i = Int(app)
        guard i >= 0 && i < apps.count, let opens = apps[i]?.opens, let count = apps[i]?.successors.count(of: next) else { return 0 }
        return Double(count) / Double(opens + 1)
    }

    /// Chance that an unlock is followed by an open of `app`.
    package func unlockChance(_ app: Int32) -> Double {
        let i = Int(app)
        guard i >= 0 && i < apps.count, let followed = apps[i]?.afterUnlock else { return 0 }
        return Double(followed) / Double(unlocks + 1)
    }

    /// Bytes the tables hold for this user, counted by element (not by what the allocator
    /// rounds up to, which varies from run to run).
    public var bytes: Int {
        MemoryLayout<Self>.size + apps.count * MemoryLayout<App?>.stride + unlockApps.count * 4 + recentOpens.count * 16
            + apps.reduce(0) { $0 + ($1.map { $0.slots.count * 4 + $0.successors.distinct * 8 } ?? 0) }
    }
}

extension OpenCounts.App {
    mutating func count(slot: Int, day: Int64, afterUnlock unlock: Bool) {
        opens += 1
        if unlock { afterUnlock += 1 }
        if day != countedDay {
            countedDay = day
            counted = (0, 0)
        }
        let bit = UInt64(1) << UInt64(slot % 64)
        let seen = slot < 64 ? counted.0 & bit != 0 : counted.1 & bit != 0
        guard !seen else { return }
        if slot < 64 { counted.0 |= bit } else { counted.1 |= bit }
        slots[slot] += 1
    }

    mutating func follow(with app: Int32) { successors.add(app) }
}
