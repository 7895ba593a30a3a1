/// The plans a planning session answered since its state last changed, so that asking again
/// costs a lookup.
///
/// A plan is a function of the session's state and the question (app, moment, horizon); the
/// state changes only by an event or a fetch report, and each empties the memo
/// (``PlanningSession/receive(_:)``, ``PlanningSession/report(_:user:)``). A server that plans
/// pushes asks for every user it serves, again and again between the user's events. A plan's
/// JSON, once written, is kept with it: writing it costs more than looking the plan up.
///
/// Bounded: it keeps at most ``capacity`` questions and ``maxBytes`` of plans and JSON,
/// dropping the oldest first; a plan larger than that alone (a long horizon's) is not kept.
struct PlanMemo {
    struct Question: Equatable {
        var app: String
        var at: Int64?
        var horizon: Int64
    }

    struct Kept {
        var question: Question
        var plan: FetchPlan
        /// The plan's JSON with the user named as it was asked for, once written.
        var json: (user: String, text: String)?

        /// About what it holds in memory: the plan's arrays and texts, and its JSON.
        var bytes: Int {
            MemoryLayout<Kept>.stride + question.app.utf8.count + plan.app.utf8.count + plan.user.utf8.count
                + plan.entries.count * MemoryLayout<FetchPlan.Entry>.stride
                + plan.triggers.reduce(0) { $0 + MemoryLayout<FetchPlan.Trigger>.stride + $1.reason.utf8.count }
                + (plan.reason?.utf8.count ?? 0) + (json.map { $0.user.utf8.count + $0.text.utf8.count } ?? 0)
        }
    }

    static let capacity = 8
    static let maxBytes = 32 * 1024
    private(set) var kept: [Kept] = []
    private(set) var bytes = 0

    func plan(for question: Question) -> FetchPlan? {
        kept.first { $0.question == question }?.plan
    }

    /// The JSON kept for `question` with the user named `user`.
    func json(for question: Question, naming user: String) -> String? {
        guard let json = kept.first(where: { $0.question == question })?.json, json.user == user else { return nil }
        return json.text
    }

    mutating func keep(_ plan: FetchPlan, for question: Question) {
        insert(Kept(question: question, plan: plan))
    }

    /// Keeps the JSON of the plan kept for `question` (nothing when it is no longer kept).
    mutating func keep(json text: String, naming user: String, for question: Question) {
        guard let i = kept.firstIndex(where: { $0.question == question }) else { return }
        var k = kept.remove(at: i)
        bytes -= k.bytes
        k.json = (user, text)
        insert(k)
    }

    mutating func forget() {
        if !kept.isEmpty { kept.removeAll(keepingCapacity: true) }
        bytes = 0
    }

    private mutating func insert(_ k: Kept) {
        let size = k.bytes
        guard size <= Self.maxBytes else { return }
        while !kept.isEmpty && (kept.count == Self.capacity || bytes + size > Self.maxBytes) {
            bytes -= kept.removeFirst().bytes
        }
        kept.append(k)
        bytes += size
    }
}
