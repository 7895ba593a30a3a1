/// An example kept until the log answers it (``AnswerQueue``).
protocol AwaitedExample: Sendable {
    /// When the example was made.
    var time: Int64 { get }
    /// Where its horizon ends.
    var end: Int64 { get }
    /// The app whose open answers it.
    var app: Int32 { get }
    /// Whether an open has answered it already.
    var settled: Bool { get set }
}

/// What learns from examples once the log has answered them.
protocol ExampleLearner {
    associatedtype Example: AwaitedExample
    /// Learns from `x`, answered: `hit` when an open of its app came in time.
    mutating func answer(_ x: Example, hit: Bool)
}

/// Examples waiting, in time order, for the log to answer them: an open of the example's app
/// between ``StaleOpenLabel/lead`` and the end of its horizon is a yes; an open sooner, or none by
/// the horizon's end, a no. The value rule's calibration and the mixture's weighing keep theirs here.
struct AnswerQueue<Example: AwaitedExample>: Sendable {
    /// Examples waiting for their answer, at most this many (the oldest are dropped unlearned).
    static var capacity: Int { 8192 }
    /// The longest horizon an example may have: how long examples wait at most.
    let longest: Int64
    /// Waiting examples by time, from `head` on.
    private(set) var pending: [Example] = []
    private(set) var head = 0

    init(longest: Int64) {
        self.longest = longest
    }

    /// How many examples wait.
    var count: Int { pending.count - head }

    /// Keeps `x`, the latest example, dropping the oldest unlearned when full.
    @inline(__always)
    mutating func append(_ x: Example) {
        if pending.count - head >= Self.capacity { head += 1 }
        pending.append(x)
    }

    /// Changes the example appended last, while it waits.
    @inline(__always)
    mutating func changeLast(_ change: (inout Example) -> Void) {
        guard head < pending.count else { return }
        change(&pending[pending.count - 1])
    }

    /// Answers the examples that one log event answers, to `learner`: those whose horizon has
    /// closed are noes; an open answers its app's.
    mutating func observe<L: ExampleLearner>(_ e: UsageEvent, into learner: inout L) where L.Example == Example {
        let t = e.time.millis
        // An example whose horizon has closed is a no, counted once it is the oldest waiting (its
        // answer cannot change by then: an open answers only examples whose horizon it is in).
        while head < pending.count && pending[head].time + longest < t {
            if !pending[head].settled { learner.answer(pending[head], hit: false) }
            head += 1
        }
        // Answered examples are let go once they are most of the array: a plan copies the state,
        // and with it every example still held.
        if head > 64 && head * 2 > pending.count {
            pending.removeFirst(head)
            head = 0
        }
        guard e.kind == .open else { return }
        var i = pending.count - 1
        while i >= head {
            if pending[i].app == e.app && !pending[i].settled {
                pending[i].settled = true
                learner.answer(pending[i], hit: StaleOpenLabel.covers(open: t, moment: pending[i].time, window: pending[i].end - pending[i].time))
            }
            i -= 1
        }
    }

    /// Bytes the waiting examples hold, counted by element.
    var bytes: Int { count * MemoryLayout<Example>.stride }
}
