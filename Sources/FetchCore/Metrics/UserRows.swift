#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A report's rows by user, in name order: held in memory, or read back one at a time from an
/// archive that keeps them elsewhere (``UserRowArchive``).
///
/// A replay of many users one at a time (`--by-user`) holds one user's simulation at a time,
/// but every retired user's row (a tally with its staleness histogram, a few kilobytes) until
/// the report: the one part of its memory that grows with the population. Given an archive (the
/// command line's keeps the rows in a temporary file), a replay hands each row over as its user
/// retires, and the report reads them back in name order.
public struct UserRows: Sendable {
    enum Storage: Sendable {
        case memory([ReplayResult.UserRow])
        case archived(any SortedUserRows)
    }

    var storage: Storage

    public init(_ rows: [ReplayResult.UserRow]) { storage = .memory(rows) }

    /// The rows an archive keeps, in its order (name order).
    public init(_ rows: any SortedUserRows) { storage = .archived(rows) }

    /// The sum of the rows' days (user-days), without reading the rows an archive keeps.
    public var days: Int {
        switch storage {
        case .memory(let rows): rows.reduce(0) { $0 + $1.days }
        case .archived(let rows): rows.days
        }
    }

    /// The rows, when they are held in memory; nil when an archive keeps them.
    package var held: [ReplayResult.UserRow]? {
        if case .memory(let rows) = storage { rows } else { nil }
    }

    /// The user of the row at `i`, without reading the rest of the row.
    public func user(at i: Int) -> String {
        switch storage {
        case .memory(let rows): rows[i].user
        case .archived(let rows): rows.user(at: i)
        }
    }

    /// The row at `i` as a shard report writes it (FetchResults' `ShardReport.makeEncoder()`), when an
    /// archive keeps it in that form: copied, not read and encoded again.
    package func encodedRow(at i: Int) -> Data? {
        if case .archived(let rows) = storage { rows.encodedRow(at: i) } else { nil }
    }

    /// What the row at `i` spent and rescued, read without the rest of the row when an archive
    /// keeps it (``SortedUserRows/spent(at:)``).
    public func spent(at i: Int) -> Spent {
        switch storage {
        case .memory(let rows): Spent(rows[i])
        case .archived(let rows): rows.spent(at: i)
        }
    }

    /// A user's days, energy and rescued opens: what a user's frontier reads of each row.
    public struct Spent: Sendable, Equatable {
        public var days: Int
        public var energyMicroJ: Int64
        public var rescuedOpens: Int

        public init(_ row: ReplayResult.UserRow) {
            (days, energyMicroJ, rescuedOpens) = (row.days, row.tally.energyMicroJ, row.tally.rescuedOpens)
        }
    }
}

/// Rows by user kept outside memory, in name order: what a ``UserRowArchive`` gives once sealed,
/// or several of them merged (FetchResults' `ReplayResult.merged(_:)`).
public protocol SortedUserRows: AnyObject, Sendable {
    var count: Int { get }
    /// The sum of the rows' days.
    var days: Int { get }
    /// The user of the row at `i`, read without the row.
    func user(at i: Int) -> String
    /// The row at `i`.
    func row(at i: Int) -> ReplayResult.UserRow
    /// The row at `i` as a shard report writes it (FetchResults' `ShardReport.makeEncoder()`), or nil when
    /// the rows are not kept in that form.
    func encodedRow(at i: Int) -> Data?
    /// What the row at `i` spent and rescued; the row read whole unless the archive keeps it apart.
    func spent(at i: Int) -> UserRows.Spent
}

extension SortedUserRows {
    public func spent(at i: Int) -> UserRows.Spent { UserRows.Spent(row(at: i)) }
}

/// Where a replay keeps its users' rows until its report, instead of in memory (``Replay``).
public protocol UserRowArchive: AnyObject {
    /// Keeps the row of a user whose replay has ended; rows come in any order, one per user.
    func append(_ row: ReplayResult.UserRow)
    /// The rows kept, in name order; no row is appended after.
    func sealed() -> any SortedUserRows
}

extension UserRows: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .memory(let rows): rows.count
        case .archived(let rows): rows.count
        }
    }

    public subscript(i: Int) -> ReplayResult.UserRow {
        get {
            switch storage {
            case .memory(let rows): rows[i]
            case .archived(let rows): rows.row(at: i)
            }
        }
        set {
            // A changed row is held in memory with the others (the archive is read, not changed).
            var rows = held ?? Array(self)
            storage = .memory([])
            rows[i] = newValue
            storage = .memory(rows)
        }
    }
}

extension UserRows: ExpressibleByArrayLiteral {
    public init(arrayLiteral rows: ReplayResult.UserRow...) { self.init(rows) }
}

extension UserRows: Equatable {
    /// Equal when the same rows come in the same order, wherever they are kept.
    public static func == (a: UserRows, b: UserRows) -> Bool { a.elementsEqual(b) }
}

extension UserRows: Codable {
    /// As an array of rows, read back into memory.
    public init(from decoder: any Decoder) throws {
        self.init(try [ReplayResult.UserRow](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for row in self { try c.encode(row) }
    }
}
