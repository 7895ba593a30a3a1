import HeapModule

/// The engine's own moments ahead of one user: fetch completions, the periodic tick, the
/// policy's timer and the next content update.
///
/// Transfers and tasks keep their own next moment (``TransferQueue``, ``TaskQueue``); ``due``
/// weighs all of them and says which one runs next, and the simulator runs it.
struct Agenda {
    /// A fetch's completion, ordered by (time, sequence number): a heap gives no order among ties.
    struct Completion: Comparable {
        var time: Int64
        var sequence: UInt32
        /// The app's index in the engine's state.
        var app: Int32

        static func < (a: Completion, b: Completion) -> Bool {
            a.time != b.time ? a.time < b.time : a.sequence < b.sequence
        }
    }

    /// What runs at the next moment; at equal times, in this order.
    enum Due: Equatable {
        case completion, transfers, tasks, update, timer, tick
    }

    private(set) var completions = Heap<Completion>()
    private var sequence: UInt32 = 0
    var nextTick: Int64 = .max
    /// The policy's timer, `.max` when none is set.
    var wakeAt: Int64 = .max
    /// The next content update of any `updates` app, for policies that plan pushes (else .max).
    var nextUpdate: Int64 = .max

    /// Starts the periodic tick at the first whole tick after `t`.
    mutating func startTicks(after t: Int64, every tick: Int64) {
        nextTick = (LocalTime.floorDiv(t, tick) + 1) * tick
    }

    /// Skips the tick and the timer over a silence ending at `resume`: the tick goes on from
    /// the first whole tick at or after it, a timer set within the silence is dropped.
    mutating func skipSilence(to resume: Int64, every tick: Int64) {
        if nextTick < resume { nextTick = (LocalTime.floorDiv(resume - 1, tick) + 1) * tick }
        if wakeAt < resume { wakeAt = .max }
    }

    /// Notes a fetch of the app at index `app` that completes at `t`.
    mutating func complete(app: Int, at t: Int64) {
        sequence &+= 1
        completions.insert(Completion(time: t, sequence: sequence, app: Int32(app)))
    }

    mutating func takeCompletion() -> Completion { completions.removeMin() }

    /// The policy's timer fires at `moment`: it is cleared, and a tick due at the same moment
    /// is covered by it.
    mutating func fireTimer(at moment: Int64, every tick: Int64) {
        wakeAt = .max
        if nextTick == moment { nextTick += tick }
    }

    /// The periodic tick runs: the next one is a tick later.
    mutating func fireTick(every tick: Int64) { nextTick += tick }

    /// The next moment at or before `t`, given when transfers and tasks next end, and what
    /// runs then; nil when nothing is due by `t`.
    func due(through t: Int64, transfers: Int64, tasks: Int64) -> (time: Int64, what: Due)? {
        let done = completions.min?.time ?? .max
        let moment = min(done, nextTick, wakeAt, nextUpdate, transfers, tasks)
        if moment > t { return nil }
        let what: Due = done == moment ? .completion : transfers == moment ? .transfers : tasks == moment ? .tasks
            : nextUpdate == moment ? .update : wakeAt == moment ? .timer : .tick
        return (moment, what)
    }
}
