import FetchCore

/// Fetches the named apps at the given instants, and nothing else.
public struct ScriptedPolicy: FetchPolicy {
    public let script: [(time: Instant, app: Int32)]

    public init(_ script: [(time: Instant, app: Int32)]) {
        self.script = script.sorted { $0.time < $1.time }
    }

    public var name: String { "scripted" }
    public func makeState() -> Int { 0 }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout Int, decision: inout Decision) {
        while state < script.count && script[state].time <= view.now {
            decision.fetches.append(script[state].app)
            state += 1
        }
        if state < script.count { decision.wakeAt = script[state].time }
    }
}

/// Asks to fetch every app it knows of, `never` ones included, at every decision point, and
/// to be woken again ten seconds later: the engine alone must keep the rules.
public struct GreedyPolicy: FetchPolicy {
    public let extraApps: [Int32]

    public init(extraApps: [Int32] = []) { self.extraApps = extraApps }

    public var name: String { "greedy" }
    public func makeState() {}

    public func decide(_ point: DecisionPoint, view: UserView, state: inout Void, decision: inout Decision) {
        for app in view.apps { decision.fetches.append(app.id) }
        decision.fetches.append(contentsOf: extraApps)
        decision.wakeAt = view.now + 10 * Millis.second
    }
}

/// Random requests and random wake-ups from a seeded stream.
public struct RandomPolicy: FetchPolicy {
    public let seed: UInt64
    public let apps: Int32

    public init(seed: UInt64, apps: Int32) {
        self.seed = seed
        self.apps = apps
    }

    public var name: String { "random" }
    public func makeState() -> SplitMix64 { SplitMix64(seed: seed) }

    public func decide(_ point: DecisionPoint, view: UserView, state: inout SplitMix64, decision: inout Decision) {
        for _ in 0..<state.int(in: 0...3) { decision.fetches.append(Int32(state.int(in: 0...Int(apps - 1)))) }
        decision.wakeAt = view.now + Int64(state.int(in: 1...600_000))
    }
}

/// Pushes every app at every content update, ignoring the rate limit: the engine must hold
/// what is over it.
public struct PushGreedyPolicy: FetchPolicy {
    public init() {}
    public var name: String { "push-greedy" }
    public static var plansPushes: Bool { true }
    public func makeState() {}
    public func decide(_ point: DecisionPoint, view: UserView, state: inout Void, decision: inout Decision) {
        guard case .contentUpdate = point else { return }
        for app in view.apps { decision.pushes.append(app.id) }
    }
}

/// Collects trace rows and pushes in memory.
public final class RecordingTrace: TraceSink {
    public struct Push: Equatable, Sendable {
        public var user: Int32
        public var app: Int32
        public var time: Int64
        public var silent: Bool
        public var fate: PushFate
        public var receivedAt: Int64
    }

    public private(set) var rows: [TraceRow] = []
    public private(set) var pushes: [Push] = []
    public init() {}
    public func record(_ row: TraceRow) { rows.append(row) }
    public func recordPush(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, silent: Bool, fate: PushFate, receivedAt: Int64) {
        pushes.append(Push(user: user, app: app, time: time, silent: silent, fate: fate, receivedAt: receivedAt))
    }
}
