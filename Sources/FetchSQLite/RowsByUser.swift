import FetchCore

/// An ingest's rows held back a bounded number at a time and given out user by user, in the
/// events table's key order: by the user's store id, each user's rows in the order they came.
///
/// The table is keyed by user first, and a log comes in time order across users: inserted as
/// read, each row would land in the middle of the table, at its user's place. Given out user by
/// user, the rows of an ingest into an empty store append to the table's end, and those into a
/// store that holds events go to each user's place a run at a time. A counting sort on the
/// users' ranks keeps each user's rows in arrival order and costs one pass; a comparison sort
/// would cost more and move rows that arrive in order already.
struct RowsByUser {
    /// One stored row, without its user (held apart, as the rank the sort keys on).
    struct Row {
        var ts: Int64
        var app: Int64
        var occurrence: Int64
        var value: Int16
        var offset: Int16
        var kind: UInt8
        var unixForm: Bool
    }

    /// How many rows are held before they must be given out.
    let capacity: Int
    private(set) var rows: [Row] = []
    /// The user of each held row, as an index into `users`.
    private var owners: [Int32] = []
    /// The store ids of the users seen, in the order first seen.
    private var users: [Int64] = []
    private var slot: [Int64: Int32] = [:]

    init(capacity: Int) {
        self.capacity = capacity
        rows.reserveCapacity(capacity)
        owners.reserveCapacity(capacity)
    }

    var isFull: Bool { rows.count >= capacity }

    mutating func append(_ row: Row, user: Int64) {
        let owner: Int32
        if let known = slot[user] {
            owner = known
        } else {
            owner = Int32(users.count)
            slot[user] = owner
            users.append(user)
        }
        rows.append(row)
        owners.append(owner)
    }

    /// Calls `body` with each held row and its user's store id, users in ascending id order,
    /// then forgets them all.
    mutating func drain(_ body: (Int64, Row) throws -> Void) rethrows {
        defer {
            rows.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
        }
        let byID = users.indices.sorted { users[$0] < users[$1] }
        var rank = [Int](repeating: 0, count: users.count)
        for (r, u) in byID.enumerated() { rank[u] = r }
        // Where each rank's rows start in the order given out.
        var start = [Int](repeating: 0, count: users.count + 1)
        for owner in owners { start[rank[Int(owner)] + 1] += 1 }
        for r in 0..<users.count { start[r + 1] += start[r] }
        var order = [Int32](repeating: 0, count: rows.count)
        for (i, owner) in owners.enumerated() {
            let r = rank[Int(owner)]
            order[start[r]] = Int32(i)
            start[r] += 1
        }
        var next = 0
        for r in 0..<users.count {
            let user = users[byID[r]]
            while next < start[r] {
                try body(user, rows[Int(order[next])])
                next += 1
            }
        }
    }
}
