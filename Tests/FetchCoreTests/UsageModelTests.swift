import FetchCore
import FetchTesting
import Testing

/// The per-user model learns habits, follows them when they move, and stays small.
struct UsageModelTests {
    /// A Monday-start log: the given opens on each of `days` days (weekdays only if asked).
    func model(days: Int, weekdaysOnly: Bool = true, _ plant: (inout LogBuilder, Int) -> Void) -> (UsageModel, LogBuilder) {
        var log = LogBuilder(offsetMinutes: 60)
        for d in 0..<days {
            log.add(.battery, value: 90, at: "00:05", plusDays: d)  // the clock passes every hour
            log.open("other", at: "12:00", plusDays: d)
            if weekdaysOnly && d % 7 >= 5 { continue }
            plant(&log, d)
        }
        var m = UsageModel()
        for e in log.events.sorted(by: { $0.time < $1.time }) { m.observe(e) }
        return (m, log)
    }

    @Test func aWeekdayMorningHabitIsLearnedAndNotCarriedToWeekends() {
        let (m, log) = model(days: 14) { log, d in log.open("news", at: "07:30", plusDays: d) }
        let news = log.apps.id("news")
        let monday = m.openProbability(news, from: log.time("07:15", plusDays: 14).millis, span: 30 * Millis.minute, offsetMinutes: 60)
        let saturday = m.openProbability(news, from: log.time("07:15", plusDays: 19).millis, span: 30 * Millis.minute, offsetMinutes: 60)
        let mondayNoon = m.openProbability(news, from: log.time("15:00", plusDays: 14).millis, span: 30 * Millis.minute, offsetMinutes: 60)
        #expect(monday > 0.5)
        #expect(saturday < 0.05)
        #expect(mondayNoon < 0.05)
    }

    @Test func aHabitThatMovesIsFollowedWithinAFewDays() {
        let (m, log) = model(days: 21, weekdaysOnly: false) { log, d in
            log.open("news", at: d < 14 ? "07:30" : "06:30", plusDays: d)
        }
        let news = log.apps.id("news")
        let old = m.openProbability(news, from: log.time("07:15", plusDays: 21).millis, span: 15 * Millis.minute, offsetMinutes: 60)
        let new = m.openProbability(news, from: log.time("06:15", plusDays: 21).millis, span: 15 * Millis.minute, offsetMinutes: 60)
        #expect(new > old)
        #expect(new > 0.5)
    }

    /// Smoothed, a bin borrows half of the quarter-hour before it: an open that came at 7:40 may
    /// come at 7:50; nothing is lent earlier, and the habit's own bin keeps two thirds, a little
    /// less as the prior pulls both toward the app's share of the sessions there (half of them).
    @Test func theSmoothedChanceLendsAHabitToTheQuarterHourAfterItAndNoneBefore() {
        let (m, log) = model(days: 14, weekdaysOnly: false) { log, d in log.open("news", at: "07:40", plusDays: d) }
        let news = log.apps.id("news")
        func chance(_ clock: String, smoothed: Bool) -> Double {
            m.openProbability(news, from: log.time(clock, plusDays: 14).millis, span: 15 * Millis.minute, offsetMinutes: 60,
                              smoothed: smoothed)
        }
        let own = chance("07:30", smoothed: false), ownSmoothed = chance("07:30", smoothed: true)
        #expect(own > 0.9)
        #expect(ownSmoothed < own * 2 / 3 && ownSmoothed > own / 2, "\(ownSmoothed) against \(own)")
        #expect(chance("07:45", smoothed: false) == 0)
        let after = chance("07:45", smoothed: true)
        #expect(after < own / 3 && after > own / 4, "\(after) against \(own)")
        #expect(chance("07:15", smoothed: true) == 0)
        #expect(m.anyOpens(from: log.time("07:45", plusDays: 14).millis, span: 15 * Millis.minute, offsetMinutes: 60))
        #expect(!m.anyOpens(from: log.time("08:00", plusDays: 14).millis, span: 15 * Millis.minute, offsetMinutes: 60))
    }

    /// Smoothed, an app never opened at a time of the week when the user opens others has a small
    /// chance there, from the sessions they start then and the app's share of sessions; where the
    /// user opens no app, none; and the habit's own bin keeps far the larger chance.
    @Test func theSmoothedChanceLendsAnAppASmallChanceWhereTheUserOpensOthersAndNoneElsewhere() {
        let (m, log) = model(days: 14, weekdaysOnly: false) { log, d in log.open("news", at: "07:40", plusDays: d) }
        let news = log.apps.id("news"), other = log.apps.id("other")
        func chance(_ app: Int32, _ clock: String, smoothed: Bool) -> Double {
            m.openProbability(app, from: log.time(clock, plusDays: 14).millis, span: 15 * Millis.minute, offsetMinutes: 60,
                              smoothed: smoothed)
        }
        #expect(chance(other, "07:30", smoothed: false) == 0)
        let lent = chance(other, "07:30", smoothed: true)
        #expect(lent > 0.01 && lent < 0.1, "\(lent)")
        #expect(chance(news, "07:30", smoothed: true) > 5 * lent)
        #expect(chance(news, "11:45", smoothed: true) > 0.01)  // the noon sessions are the other app's
        for clock in ["03:00", "07:15", "09:00", "18:30"] {
            #expect(chance(other, clock, smoothed: true) == 0, "\(clock)")
            #expect(chance(news, clock, smoothed: true) == 0, "\(clock)")
        }
    }

    @Test func theAppThatFollowsIsLearned() {
        let (m, log) = model(days: 10, weekdaysOnly: false) { log, d in
            log.open("mail", at: "09:00", plusDays: d)
            log.open("calendar", at: "09:00:40", plusDays: d)
        }
        #expect(m.successorProbability(log.apps.id("calendar"), after: log.apps.id("mail")) > 0.8)
        #expect(m.successorProbability(log.apps.id("mail"), after: log.apps.id("calendar")) < 0.2)
    }

    @Test func anAppThatComesAFewAppsLaterStillFollowsOncePerOpen() {
        let (m, log) = model(days: 10, weekdaysOnly: false) { log, d in
            log.open("mail", at: "09:00", plusDays: d)
            log.open("calendar", at: "09:00:40", plusDays: d)
            log.open("chat", at: "09:03", plusDays: d)
            log.open("news", at: "09:06", plusDays: d)
            log.open("chat", at: "09:07", plusDays: d)  // a second chat after mail counts once
            log.open("weather", at: "09:20", plusDays: d)  // past the ten minutes
        }
        let id = { log.apps.id($0) }
        #expect(m.successorProbability(id("chat"), after: id("mail")) > 0.8)
        #expect(m.successorProbability(id("chat"), after: id("mail")) <= 1)
        #expect(m.successorProbability(id("news"), after: id("mail")) > 0.8)
        #expect(m.successorProbability(id("weather"), after: id("mail")) == 0)
    }

    @Test func opensThatComeWellAfterScreenOnAreLate() {
        let (m, log) = model(days: 10, weekdaysOnly: false) { log, d in
            log.add(.screenOn, at: "20:00", plusDays: d)
            log.open("reader", at: "20:00:12", plusDays: d)
            log.add(.screenOn, at: "21:00", plusDays: d)
            log.open("chat", at: "21:00:01", plusDays: d)
        }
        #expect(m.hasScreenEvents)
        #expect(m.lateShare(log.apps.id("reader")) > 0.8)
        #expect(m.lateShare(log.apps.id("chat")) < 0.2)
        let p = m.sessionProbability(log.apps.id("reader"), at: log.time("20:00", plusDays: 10).millis, offsetMinutes: 60)
        #expect(p > 0.6)
    }

    @Test func theAppOpenedAfterPluggingInIsLearned() {
        let (m, log) = model(days: 10, weekdaysOnly: false) { log, d in
            log.add(.plugged, at: "23:00", plusDays: d)
            log.open("alarm", at: "23:01", plusDays: d)
        }
        #expect(m.plugProbability(log.apps.id("alarm")) > 0.9)
        #expect(m.plugProbability(log.apps.id("other")) == 0)
    }

    @Test func theSuccessorTableStaysBounded() {
        var log = LogBuilder()
        for i in 0..<200 {
            log.open("hub", at: "10:00", plusDays: i)
            log.open("app\(i % 40)", at: "10:01", plusDays: i)
        }
        var m = UsageModel()
        for e in log.events { m.observe(e) }
        #expect(m.apps[log.apps.id("hub")]!.successors.count == UsageModel.maxSuccessors)
        #expect(m.apps.values.allSatisfy { $0.opens.count == UsageModel.bins })
    }

    @Test(arguments: [45, 70, 100])
    func anAppUsedInARhythmIsExpectedBackWhenItsGapEndsAndNotBefore(everyMinutes: Int) {
        // Opened every `everyMinutes` from 08:00 to 20:00, ten days running.
        let (m, log) = model(days: 10, weekdaysOnly: false) { log, d in
            for k in 0..<(12 * 60 / everyMinutes) {
                let minutes = 8 * 60 + k * everyMinutes, h = minutes / 60, m = minutes % 60
                log.open("chat", at: "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)", plusDays: d)
            }
        }
        let chat = log.apps.id("chat")
        let last = m.apps[chat]!.lastOpen
        func chance(afterMinutes a: Int) -> Double {
            m.reopenProbability(chat, at: last + Int64(a) * Millis.minute, within: 15 * Millis.minute)
        }
        // The stretch that holds the usual gap's end, against one well before it.
        let due = chance(afterMinutes: everyMinutes - 5), early = chance(afterMinutes: everyMinutes / 3)
        #expect(due > 0.3, "due \(due)")
        #expect(early < 0.1, "early \(early)")
        #expect(due > 4 * early)
        // An app opened once a day is not expected back within any quarter-hour.
        #expect(m.reopenProbability(log.apps.id("other"), at: last, within: 15 * Millis.minute) < 0.05)
    }

    /// The bins with opens are exactly those where some app's opens are above 0 (and the sums per
    /// kind of day those of the bins), as opens come,
    /// as a jump of years rescales every count to nothing, and as the model is stored and read
    /// back; and where a stretch covers none of them, no app has a chance of an open in it
    /// (what lets a decision skip every app there).
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theBinsWithOpensAreThoseWhereSomeAppHasOpens(seed: UInt64) throws {
        let log = RandomLog(seed: seed, users: 1, days: 6, eventsPerDay: 40)
        var rng = SplitMix64(seed: seed)
        let first = log.events.first!.time.millis, last = log.events.last!.time.millis
        var skipped = 0
        func check(_ m: UsageModel, around base: Int64) {
            for b in 0..<UsageModel.bins {
                #expect(m.binsWithOpens.contains(b) == m.apps.values.contains { $0.opens[b] > 0 }, "bin \(b)")
            }
            // The sums kept per kind of day are those of the bins, as counts come and rescale.
            func sums(_ counts: [Float]) -> SIMD2<Float> {
                SIMD2(counts[..<UsageModel.binsPerDay].reduce(0, +), counts[UsageModel.binsPerDay...].reduce(0, +))
            }
            func near(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Bool {
                max(abs(a.x - b.x), abs(a.y - b.y)) <= 1e-4 * max(1, b.max())
            }
            #expect(near(m.sessionsByDay, sums(m.sessions)))
            for h in m.apps.values { #expect(near(h.opensByDay, sums(h.opens))) }
            for _ in 0..<40 {
                let t = base + Int64(rng.int(in: -Int(Millis.day)...Int(last - first + Millis.day)))
                let span = Int64(rng.int(in: 1...360)) * Millis.minute
                let offset = [-300, 0, 60, 330, 540][rng.int(in: 0...4)]
                guard !m.anyOpens(from: t, span: span, offsetMinutes: offset) else { continue }
                skipped += 1
                for id in m.apps.keys {
                    #expect(m.openProbability(id, from: t, span: span, offsetMinutes: offset) == 0)
                    #expect(m.openProbability(id, from: t, span: span, offsetMinutes: offset, smoothed: true) == 0)
                }
            }
        }
        var m = UsageModel()
        #expect(m.binsWithOpens.isEmpty)
        for (i, e) in log.events.enumerated() {
            m.observe(e)
            if i % 25 == 0 { check(m, around: first) }
        }
        let early = m.binsWithOpens
        #expect(!early.isEmpty)
        // The same days again, years later: the weights rescale, and the first days' counts fade to 0.
        let later = 1000 * Millis.day
        for e in log.events.prefix(log.events.count / 3) {
            var moved = e
            moved.time = Instant(millis: e.time.millis + later)
            m.observe(moved)
        }
        check(m, around: first + later)
        #expect(m.binsWithOpens != early)
        let records = m.records { log.apps[$0] }
        let back = try UsageModel(user: records.user, apps: records.apps, appID: { log.apps.id($0) })
        #expect(back == m)
        check(back, around: first + later)
        #expect(skipped > 0)
    }
}

/// The dense table of app habits behaves as a dictionary would.
struct AppHabitsTests {
    @Test(arguments: [1, 2, 3])
    func containsAgreesWithTheSubscriptWhateverIsSetAndRemoved(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var habits = AppHabits()
        var expected = Set<Int32>()
        for _ in 0..<500 {
            let id = Int32(rng.int(in: -2...40))
            if rng.chance(0.5) {
                habits[id] = id >= 0 ? AppHabit() : nil
                if id >= 0 { expected.insert(id) }
            } else {
                habits[id] = nil
                expected.remove(id)
            }
            for probe in Int32(-3)...45 {
                #expect(habits.contains(probe) == expected.contains(probe))
                #expect(habits.contains(probe) == (habits[probe] != nil))
            }
            #expect(habits.count == expected.count)
        }
    }
}
