import DequeModule

/// Everything the engine knows of one user at one moment, as one value: copying the engine
/// (to project a plan ahead) is one assignment, and a field added here is copied with the rest.
///
/// Each part owns its rule: the day's ``DayBudget`` charges and checks, the ``Radio`` knows
/// whether a wake is under way, the ``Agenda`` orders the engine's own moments, the queues
/// give their next moment, the ``PushLimiter`` counts silent pushes.
struct EngineState<PolicyState> {
    var now: Int64 = .min
    /// The user's first event (or reported fetch), `Int64.min` before it.
    var origin: Int64 = .min
    var offset = 0
    /// Whether the last event's time was written as Unix time (trace rows keep its form).
    var unixForm = false
    /// The time of the last log event or reported fetch run, for the silence rule.
    var lastActivity: Int64 = .min
    var context = DeviceContext()

    var apps: [AppState] = []
    var appIndex: [Int32: Int32] = [:]
    var lookupHint = 0
    var weighed = WeighedApps()

    var agenda = Agenda()
    var radio = Radio()
    var budget: DayBudget
    var transfers = TransferQueue()
    var tasks = TaskQueue()
    var pushes = PushLimiter()
    var recent = RecentOpens()

    /// The current local day's tally, and the user's total of the days closed before it.
    var tally = Tally()
    var total = Tally()
    var activeDays = 0
    var dayHadEvent = false
    var events = 0

    /// Events received but not yet run: the policy's lookahead, and one instant's batch.
    var lookahead = Deque<UsageEvent>()
    var batch: [UsageEvent] = []

    var policy: PolicyState

    init(budget: DayBudget, policy: PolicyState) {
        self.budget = budget
        self.policy = policy
    }
}

/// The last screen_on and opens before now, for ``MissedTally``: the last chance a policy had
/// to rescue a stale open.
struct RecentOpens {
    private(set) var screenOn: Int64 = .min
    private(set) var open: Int64 = .min
    private(set) var openApp: Int32 = -1
    /// The last open of another app than `openApp`, before the last open.
    private var otherOpen: Int64 = .min

    mutating func sawScreenOn(at t: Int64) { screenOn = t }

    mutating func opened(_ app: Int32, at t: Int64) {
        if openApp != app { otherOpen = open }
        open = t
        openApp = app
    }

    /// The last open of an app other than `app`.
    func lastOpen(otherThan app: Int32) -> Int64 { openApp == app ? otherOpen : open }
}
