import FetchCore

/// An ingest's rows held back a bounded number at a time and given out user by user, in the
/// events table's key order: by the user's store id, each user's rows in the order they came.
///
/// The table is keyed by user first, and a log comes in time order across users: inserted as
/// read, each row would land in the middle of the table, at its user's place. Given out user by
/// user, the rows of an ingest into an empty store append to the table's end, and those into a
/// store that holds events go to each user's place a run at a time.
///
/// Each user's rows are kept in chunks of a few rows, linked in order, in one pool: giving them
/// out reads memory in order. A sort of the rows by user after they are all in (a counting sort
/// gathering the rows by index) spent most of its time waiting on memory (perf, under
/// `Benchmarks/ingest-vs-sqlite3.sh`).
struct RowsByUser {
    /// One stored row, without its user.
    struct Row {
        var ts: Int64
        var app: Int64
        var occurrence: Int64
        var value: Int16
        var offset: Int16
        var kind: UInt8
        var unixForm: Bool
    }

    /// Rows per chunk: a user's last chunk is partly empty, so the pool's slack is at most this
    /// less one per user.
    static let chunk = 16

    /// How many row places (rows, and the empty places of users' last chunks) the pool holds
    /// before the rows must be given out: memory is bounded by it.
    let capacity: Int
    /// How many rows are held.
    private(set) var count = 0
    private var pool: [Row] = []
    /// Per chunk: the next chunk of its user, or -1.
    private var nextChunk: [Int32] = []
    /// The store ids of the users seen, in the order first seen; per user, by that order: its
    /// first and last chunk (-1 when it holds no rows) and how many rows its last chunk holds.
    private var users: [Int64] = []
    private var slot: [Int64: Int32] = [:]
    private var first: [Int32] = []
    private var last: [Int32] = []
    private var filled: [Int] = []

    init(capacity: Int) {
        self.capacity = max(capacity, Self.chunk)
        pool.reserveCapacity(self.capacity + Self.chunk)
    }

    var isFull: Bool { pool.count >= capacity }

    mutating func append(_ row: Row, user: Int64) {
        let u: Int
        if let known = slot[user] {
            u = Int(known)
        } else {
            u = users.count
            slot[user] = Int32(u)
            users.append(user)
            first.append(-1)
            last.append(-1)
            filled.append(0)
        }
        if last[u] < 0 || filled[u] == Self.chunk {
            let c = Int32(nextChunk.count)
            nextChunk.append(-1)
            pool.append(contentsOf: repeatElement(row, count: Self.chunk))
            if last[u] < 0 { first[u] = c } else { nextChunk[Int(last[u])] = c }
            last[u] = c
            filled[u] = 0
        }
        pool[Int(last[u]) * Self.chunk + filled[u]] = row
        filled[u] += 1
        count += 1
    }

    /// Calls `body` with each held row and its user's store id, users in ascending id order,
    /// then forgets them all.
    mutating func drain(_ body: (Int64, Row) throws -> Void) rethrows {
        defer {
            pool.removeAll(keepingCapacity: true)
            nextChunk.removeAll(keepingCapacity: true)
            for u in users.indices { (first[u], last[u], filled[u]) = (-1, -1, 0) }
            count = 0
        }
        for u in users.indices.sorted(by: { users[$0] < users[$1] }) {
            var c = first[u]
            while c >= 0 {
                let start = Int(c) * Self.chunk
                for row in pool[start..<(start + (c == last[u] ? filled[u] : Self.chunk))] { try body(users[u], row) }
                c = nextChunk[Int(c)]
            }
        }
    }
}
