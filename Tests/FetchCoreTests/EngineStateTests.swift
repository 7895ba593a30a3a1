@testable import FetchCore
import FetchTesting
import Testing

/// The parts of the engine's state, each alone: the rule it owns, with no simulator around it.
struct EngineStateTests {
    @Test(arguments: [
        (Agenda.Due.completion, Agenda.Due.transfers), (.transfers, .tasks), (.tasks, .update), (.update, .timer), (.timer, .tick),
    ])
    func atEqualTimesTheAgendaRunsCompletionsTransfersTasksUpdatesTheTimerThenTheTick(first: Agenda.Due, then: Agenda.Due) {
        func agenda(with due: Set<Agenda.Due>) -> (Agenda, transfers: Int64, tasks: Int64) {
            var a = Agenda()
            a.startTicks(after: 59_999, every: 60_000)  // the tick at 60 s
            if !due.contains(.tick) { a.nextTick = 120_000 }
            if due.contains(.completion) { a.complete(app: 0, at: 60_000) }
            if due.contains(.update) { a.nextUpdate = 60_000 }
            if due.contains(.timer) { a.wakeAt = 60_000 }
            return (a, due.contains(.transfers) ? 60_000 : .max, due.contains(.tasks) ? 60_000 : .max)
        }
        let (a, transfers, tasks) = agenda(with: [first, then])
        #expect(a.due(through: 59_999, transfers: transfers, tasks: tasks) == nil)
        let due = a.due(through: 60_000, transfers: transfers, tasks: tasks)
        #expect(due?.time == 60_000 && due?.what == first)
        let (b, t2, k2) = agenda(with: [then])
        #expect(b.due(through: 60_000, transfers: t2, tasks: k2)?.what == then)
    }

    @Test func completionsAtOneMomentComeOutInTheOrderTheirFetchesStarted() {
        var a = Agenda()
        for app in [3, 1, 2] { a.complete(app: app, at: 5_000) }
        a.complete(app: 9, at: 4_000)
        let order = (0..<4).map { _ in a.takeCompletion().app }
        #expect(order == [9, 3, 1, 2])
    }

    @Test func aSilenceDropsTheTimerAndResumesTheTickOnAWholeTick() {
        var a = Agenda()
        a.startTicks(after: 0, every: 900_000)
        a.wakeAt = 1_000_000
        a.skipSilence(to: 10_000_001, every: 900_000)
        #expect(a.wakeAt == .max)
        #expect(a.nextTick == 10_800_000)
    }

    @Test func theDayBudgetChargesRefusesTheWorstCaseAndStartsEachDayEmpty() {
        var b = DayBudget(scenario: .default)
        b.enter(day: 20_000, offsetMinutes: 60)
        #expect(b.contains(LocalTime.start(ofDay: 20_000, offsetMinutes: 60)))
        #expect(!b.contains(LocalTime.start(ofDay: 20_001, offsetMinutes: 60)))
        b.charge(energy: b.energyLimit - 10, bytes: 1_000, network: .wifi)
        #expect(b.cellular == 0, "Wi-Fi bytes are not charged against the cellular budget")
        #expect(b.refusal(worstEnergy: 10, worstBytes: 0, network: .wifi) == nil)
        #expect(b.refusal(worstEnergy: 11, worstBytes: 0, network: .wifi) == .energyBudget)
        b.charge(energy: 0, bytes: b.cellularLimit, network: .cellular)
        #expect(b.refusal(worstEnergy: 0, worstBytes: 1, network: .cellular) == .cellularBudget)
        #expect(b.refusal(worstEnergy: 0, worstBytes: 1, network: .wifi) == nil)
        #expect(!b.overspent)
        b.charge(energy: .max, bytes: 0, network: .wifi)
        #expect(b.energy == .max && b.overspent, "totals saturate")
        b.enter(day: 20_000, offsetMinutes: 60)
        #expect(b.energy == .max, "the same day again keeps what was spent")
        b.enter(day: 20_001, offsetMinutes: 60)
        #expect(b.energy == 0 && b.cellular == 0 && b.day == 20_001)
    }

    @Test func theRadioIsSharedWithinItsTailOnItsOwnNetworkOnly() {
        var r = Radio()
        #expect(!r.isAwake(at: 0, on: .wifi))
        r.stayAwake(on: .wifi, through: 2_000)
        #expect(r.isAwake(at: 2_000, on: .wifi) && !r.isAwake(at: 2_001, on: .wifi))
        #expect(!r.isAwake(at: 1_000, on: .cellular))
        r.stayAwake(on: .wifi, through: 1_500)
        #expect(r.isAwake(at: 2_000, on: .wifi), "a shorter activity does not cut the tail")
        r.stayAwake(on: .cellular, through: 1_000)
        #expect(r.isAwake(at: 1_000, on: .cellular) && !r.isAwake(at: 1_000, on: .wifi))
        r.networkChanged()
        #expect(!r.isAwake(at: 0, on: .cellular))
    }

    @Test func aTransferRunsOnWiFiOnlyAndKeepsWhatItMovedWhilePaused() {
        var q = TransferQueue()
        var wifi = DeviceContext(), cellular = DeviceContext()
        wifi.network = .wifi
        cellular.network = .cellular
        let t = Transfer(app: 0, contentTime: 0, handedOverAt: 0, bytes: 2_500, bytesLeft: 2_500, needsCharging: false)
        q.add(t, now: 0, context: wifi, rate: 1_000)
        #expect(q.nextDone == 2_500)
        q.update(now: 1_000, context: cellular, rate: 1_000)
        #expect(q.nextDone == .max && q.items[0].bytesLeft == 1_500)
        q.update(now: 5_000, context: wifi, rate: 1_000)
        #expect(q.nextDone == 6_500)
        let early = q.takeDone(now: 6_499, rate: 1_000), done = q.takeDone(now: 6_500, rate: 1_000)
        #expect(early.isEmpty && done.map(\.bytes) == [2_500])
        #expect(q.isEmpty)
    }

    @Test func aTaskRunsWhileTheDeviceIsAwakeAndReportsTheEnergyOfEachStretch() {
        var q = TaskQueue()
        var on = DeviceContext(), off = DeviceContext()
        on.screenOn = true
        off.screenOn = false
        let energy = Scenario.default.energy
        let p = TaskProfile(workMedian: 1_000, workP95: 1_000, limit: 10_000)
        let t = BackgroundTask(app: 2, registeredAt: 0, workLeft: 4_000, grantLeft: 10_000, profile: p)
        let ranBefore = q.add(t, now: 0, context: on, energy: energy)
        #expect(ranBefore == 0)
        #expect(q.nextDone == 4_000)
        let paused = q.update(now: 1_000, context: off, energy: energy)
        #expect(paused == energy.processingMicroJ(1_000))
        #expect(q.nextDone == .max && q.has(app: 2))
        let resumed = q.update(now: 2_000, context: on, energy: energy), early = q.takeEnded(now: 4_999)
        #expect(resumed == 0 && early.isEmpty)
        let ended = q.takeEnded(now: 5_000)
        #expect(ended.count == 1 && ended[0].completes)
    }

    @Test func silentPushesAreLimitedPerAppWithinAnyHour() {
        var l = PushLimiter()
        let taken = [0, 10, 20].map { l.take(1, now: $0, limit: 2) }
        #expect(taken == [true, true, false])
        #expect(l.left(1, now: 20, limit: 2) == 0 && l.left(2, now: 20, limit: 2) == 2)
        #expect(l.left(1, now: Millis.hour, limit: 2) == 1)
        let later = l.take(1, now: Millis.hour + 10, limit: 2)
        #expect(later)
        l.hold(HeldPush(app: 1, receivedAt: 20))
        let released = l.release()
        #expect(released.map(\.receivedAt) == [20] && l.held.isEmpty)
    }

    /// A copy is the state, whole: run on with the same events, the copy and the original agree.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aCopyRunOnWithTheSameEventsEndsWhereTheOriginalDoes(seed: UInt64) {
        let log = RandomLog(seed: seed, users: 1, days: 4)
        let scenario = RandomLog.scenario(seed: seed, apps: Int(log.appCount))
        func check<P: FetchPolicy>(_ policy: P) {
            let run = { ReplayContext(seed: seed, catalog: AppCatalog(scenario: scenario, names: log.apps), trace: nil, keepsDays: false) }
            let original = UserSimulator(user: 0, name: log.users[0], policy: policy, run: run())
            let half = log.events.count / 2
            for e in log.events[..<half] { original.receive(e) }
            let copy = original.copy(run: run())
            for e in log.events[half...] {
                original.receive(e)
                copy.receive(e)
            }
            let (a, b) = (original.finish(), copy.finish())
            #expect(a.tally == b.tally && a.days == b.days, "seed \(seed), \(policy.name)")
            #expect(a.tally.opens > 0 && a.tally.fetches > 0)
        }
        check(AdaptivePolicy())
        check(PushAdaptivePolicy(alsoFetch: true))
        check(OraclePolicy())
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theCostsKeptWithAnAppAreTheEnergyModelsOnEveryNetworkWithAndWithoutAWake(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200 {
            func radio() -> RadioModel {
                RadioModel(wakeJoules: rng.unit() * 5, joulesPerMB: rng.unit() * 20, tail: Int64(rng.int(in: 0...20_000)))
            }
            let energy = EnergyModel(processingWatts: rng.unit() * 3, wifi: radio(), cellular: radio())
            let median = Int64(rng.int(in: 1...29_000))
            let profile = FetchProfile(durationMedian: median, durationP95: median + Int64(rng.int(in: 0...1_000)),
                                       bytes: Int64(rng.int(in: 0...5_000_000)), noDataBytes: Int64(rng.int(in: 0...5_000_000)),
                                       failureRate: rng.unit())
            let costs = FetchCosts(settings: AppSettings(interval: .minimum, content: .window(Millis.hour), profile: profile), energy: energy)
            for network in Network.allCases {
                for shared in [false, true] {
                    #expect(costs.typical(network: network, sharedWake: shared)
                        == energy.fetchMicroJ(ms: profile.durationMedian, bytes: profile.bytes, network: network, sharedWake: shared))
                    #expect(costs.worst(network: network, sharedWake: shared)
                        == energy.fetchMicroJ(ms: Millis.deadline, bytes: max(profile.bytes, profile.noDataBytes), network: network,
                                              sharedWake: shared))
                }
            }
        }
    }
}
