@testable import FetchCore
import FetchTesting
import Testing

/// The examples a learner keeps until the log answers them: each is answered once, by the first
/// open of its app before it expires (a yes when that open lies between the lead and the end of
/// its horizon), or as a no once its longest wait has passed.
struct AnswerQueueTests {
    struct Example: AwaitedExample {
        var time: Int64
        var end: Int64
        var app: Int32
        var settled = false
        var id: Int
    }

    /// Records each answer by the example's id.
    struct Answers: ExampleLearner {
        var given: [Int: [Bool]] = [:]
        mutating func answer(_ x: Example, hit: Bool) { given[x.id, default: []].append(hit) }
    }

    static let longest = 30 * Millis.minute

    /// What the queue must answer for `x`: the first open of its app logged after it, unless the
    /// example's longest wait had passed by then.
    static func expected(_ x: Example, opens: [(time: Int64, app: Int32, after: Int)]) -> Bool {
        guard let first = opens.first(where: { $0.app == x.app && $0.after > x.id }), first.time <= x.time + longest else { return false }
        return StaleOpenLabel.covers(open: first.time, moment: x.time, window: x.end - x.time)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func everyExampleIsAnsweredOnceByTheFirstOpenOfItsAppOrAsANoOnceItsWaitHasPassed(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var queue = AnswerQueue<Example>(longest: Self.longest)
        var answers = Answers()
        var examples: [Example] = []
        var opens: [(time: Int64, app: Int32, after: Int)] = []
        var t: Int64 = 0
        for _ in 0..<3_000 {
            t += Int64.random(in: 0...(4 * Millis.minute), using: &rng)
            if Bool.random(using: &rng) {
                let horizon = Int64.random(in: 1...(2 * Self.longest), using: &rng)  // past the longest: cut to it
                let x = Example(time: t, end: t + min(horizon, Self.longest), app: Int32.random(in: 0..<4, using: &rng), id: examples.count)
                examples.append(x)
                queue.append(x)
            } else {
                let open = Int.random(in: 0..<3, using: &rng) > 0
                let e = UsageEvent(time: Instant(millis: t), user: 0, app: open ? Int32.random(in: 0..<4, using: &rng) : -1,
                                   kind: open ? .open : .screenOn)
                if open { opens.append((t, e.app, examples.count)) }
                queue.observe(e, into: &answers)
            }
            #expect(queue.count <= examples.count)
        }
        queue.observe(UsageEvent(time: Instant(millis: t + Self.longest + 1), user: 0, app: -1, kind: .screenOn), into: &answers)
        #expect(queue.count == 0, "every wait has passed")
        for x in examples {
            #expect(answers.given[x.id] == [Self.expected(x, opens: opens)], "example \(x.id)")
        }
        #expect(answers.given.values.contains([true]) && answers.given.values.contains([false]))
    }

    /// A full queue drops its oldest example unanswered to keep the latest.
    @Test func aFullQueueDropsItsOldestUnanswered() {
        var queue = AnswerQueue<Example>(longest: Self.longest)
        var answers = Answers()
        let capacity = AnswerQueue<Example>.capacity
        for id in 0...capacity { queue.append(Example(time: 0, end: Self.longest, app: 1, id: id)) }
        #expect(queue.count == capacity)
        queue.observe(UsageEvent(time: Instant(millis: Self.longest), user: 0, app: 1, kind: .open), into: &answers)
        #expect(answers.given[0] == nil, "the oldest was dropped")
        #expect(answers.given.count == capacity && answers.given[capacity] == [true])
    }
}
