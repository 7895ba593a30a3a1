/// The plans a planning session answered since its state last changed, so that asking again
/// costs a lookup.
///
/// A plan is a function of the session's state and the question (app, moment, horizon); the
/// state changes only by an event or a fetch report, and each empties the memo
/// (``PlanningSession/receive(_:)``, ``PlanningSession/report(_:user:)``). A server that plans
/// pushes asks for every user it serves, again and again between the user's events. A plan's
/// JSON, once written, is kept with it: writing it costs more than looking the plan up.
///
/// Bounded: it keeps the last ``capacity`` questions, dropping the oldest first.
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
    }

    static let capacity = 8
    private var kept: [Kept] = []

    func plan(for question: Question) -> FetchPlan? {
        kept.first { $0.question == question }?.plan
    }

    /// The JSON kept for `question` with the user named `user`.
    func json(for question: Question, naming user: String) -> String? {
        guard let json = kept.first(where: { $0.question == question })?.json, json.user == user else { return nil }
        return json.text
    }

    mutating func keep(_ plan: FetchPlan, for question: Question) {
        if kept.count == Self.capacity { kept.removeFirst() }
        kept.append(Kept(question: question, plan: plan))
    }

    /// Keeps the JSON of the plan kept for `question` (nothing when it is no longer kept).
    mutating func keep(json text: String, naming user: String, for question: Question) {
        guard let i = kept.firstIndex(where: { $0.question == question }) else { return }
        kept[i].json = (user, text)
    }

    mutating func forget() {
        if !kept.isEmpty { kept.removeAll(keepingCapacity: true) }
    }
}
