/// The predictor's scores that the points of one swept family of the value rule share: a
/// frontier's points differ only in their price, and their predictor learns from the user's
/// events alone, so at a moment every point would score an app alike. The first point to weigh
/// an app at a moment scores it; the others read that score.
///
/// The points of a user pass the same moments in the same order (ticks and the log's wakes and
/// opens; the rule sets no timer), each counted by its place in that order. A moment is read
/// only when its time, kind, opened app and the count of events the predictor has seen match
/// the reading point's, and a score only when the app in its place is the reading point's: any
/// difference and the point scores the app itself, so what a point decides is what it decides
/// alone, whatever the order the points run in. Each user's moments are kept until every point
/// has passed them; a user is forgotten when every point has ended it.
///
/// One per family and replaying thread (``makeReplays(policies:scenario:seed:users:apps:traces:archives:)``):
/// its points run on one thread, one after the other, so it takes no lock.
public final class SharedScores: @unchecked Sendable {
    /// What makes two points' moments one: the predictor's reading depends on nothing else.
    struct Key: Equatable {
        var time: Int64
        var observed: Int
        var opened: Int32
        var kind: PredictionMoment.Kind
    }

    /// One user's moments not yet passed by every point, and each point's place among them.
    ///
    /// Read and written at every decision of every point, one thread only, with no access kept
    /// open across a call: without dynamic exclusivity checks, as ``UserSimulator``'s state.
    package final class User {
        /// The place of `keys[0]` among the user's moments.
        @exclusivity(unchecked) var base = 0
        @exclusivity(unchecked) var keys: [Key] = []
        /// Where each moment's apps start in `ids` and `values`.
        @exclusivity(unchecked) var starts: [Int] = []
        @exclusivity(unchecked) var ids: [Int32] = []
        /// NaN where no point has scored the app there yet.
        @exclusivity(unchecked) var values: [Double] = []
        /// The next moment of each point.
        @exclusivity(unchecked) var cursors: [Int]
        /// The points that hold a ticket on the user (or have held one).
        var taken: [Bool]
        var ended = 0
        /// The moments kept before any is dropped.
        let keeps: Int

        init(points: Int, keeps: Int) {
            (cursors, taken, self.keeps) = (Array(repeating: 0, count: points), Array(repeating: false, count: points), keeps)
        }

        /// Drops the moments every point has passed, once they are most of those kept.
        func trim() {
            guard keys.count >= keeps, let low = cursors.min(), low - base >= keys.count / 2 else { return }
            let n = low - base, cut = n < starts.count ? starts[n] : ids.count
            keys.removeFirst(n)
            starts.removeFirst(n)
            for i in starts.indices { starts[i] -= cut }
            ids.removeFirst(cut)
            values.removeFirst(cut)
            base = low
        }
    }

    /// A point's hold on one user's moments, kept in its user state; its end is the point's end of the user.
    public final class Ticket: @unchecked Sendable {
        let scores: SharedScores
        package let user: User
        let hash: UInt64
        let point: Int

        init(scores: SharedScores, user: User, hash: UInt64, point: Int) {
            (self.scores, self.user, self.hash, self.point) = (scores, user, hash, point)
        }

        deinit { scores.ended(user, hash: hash) }

        /// The moment at the point's place `cursor` (which it moves on), made when the point is the
        /// first there: where its apps are kept, or nil when another point's moment there differs.
        func moment(_ key: Key, cursor: inout Int, apps: [AppState]) -> Range<Int>? {
            let place = cursor
            cursor += 1
            user.cursors[point] = cursor
            let i = place - user.base
            if i == user.keys.count {
                user.keys.append(key)
                user.starts.append(user.ids.count)
                for a in apps { user.ids.append(a.id) }
                user.values.append(contentsOf: repeatElement(.nan, count: apps.count))
                return user.starts[i]..<user.ids.count
            }
            if place % user.keeps == 0 { user.trim() }
            let j = place - user.base
            guard j >= 0, j < user.keys.count, user.keys[j] == key else { return nil }
            return user.starts[j]..<(j + 1 < user.starts.count ? user.starts[j + 1] : user.ids.count)
        }

        /// The score of `app`, in place `index` of the moment kept in `slots`: read, or made by `score`.
        @inline(__always)
        func score(_ app: Int32, index: Int, in slots: Range<Int>, _ score: () -> Double) -> Double {
            let k = slots.lowerBound + index
            guard k < slots.upperBound, user.ids[k] == app else { return score() }
            let v = user.values[k]
            if !v.isNaN { return v }
            let s = score()
            user.values[k] = s
            return s
        }
    }

    let points: Int
    /// A user's moments kept before those every point has passed are dropped (and how often it is
    /// looked for): a stretch of ``UserGrouping``'s feeding holds about as many.
    let keeps: Int
    private var users: [UInt64: User] = [:]

    /// Scores shared by `points` points.
    public init(points: Int, keeps: Int = 4096) { (self.points, self.keeps) = (max(1, points), max(2, keeps)) }

    /// Point `point`'s hold on the user whose name hashes to `hash`. A point that holds the hash
    /// already has met a second user of the same hash (names can be made to collide): that user's
    /// points share nothing, each keeping moments of its own (every point meets the users in the same order).
    package func ticket(user hash: UInt64, point: Int) -> Ticket {
        let user = users[hash] ?? { let u = User(points: points, keeps: keeps); users[hash] = u; return u }()
        guard !user.taken[point] else { return Ticket(scores: self, user: User(points: 1, keeps: keeps), hash: hash, point: 0) }
        user.taken[point] = true
        return Ticket(scores: self, user: user, hash: hash, point: point)
    }

    /// A point ended the user: once every point has, its moments go.
    fileprivate func ended(_ user: User, hash: UInt64) {
        user.ended += 1
        if user.ended >= points, users[hash] === user { users[hash] = nil }
    }

    /// The users whose moments are kept (for tests).
    package var usersKept: Int { users.count }
}
