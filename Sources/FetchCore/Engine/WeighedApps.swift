/// The apps a decision weighs: of those the user has opened, the most recently opened, at most
/// ``limit`` of them, listed in the order of the user's app states.
///
/// The bound keeps a decision's cost independent of how many apps a user has: one user with
/// thousands of apps opened once each would otherwise make every decision weigh them all, and
/// a replay or a plan grow with the square of the apps. A user who has opened no more than
/// ``limit`` apps has all of them listed, in the order a loop over every app state would meet
/// them, so the bound changes nothing of theirs (docs/policies.md, "Apps a decision weighs").
public struct WeighedApps: RandomAccessCollection, Sendable, Equatable {
    /// The most apps a decision weighs; the prediction benchmark scores as many at a moment.
    public static let limit = 256

    /// An app's index into the user's app states (``UserView/apps``), and the open count at
    /// which it was last opened: the smallest is the least recently opened, the one a newly
    /// opened app replaces when the list is full. One array, so that a view holds one reference.
    struct Entry: Sendable, Equatable {
        var index: Int32
        var stamp: UInt64
    }

    /// Ascending by index.
    private var entries: [Entry] = []
    private var opens: UInt64 = 0

    public init() {}

    /// Whether the user has opened more apps than ``limit``, so that some are not weighed.
    public private(set) var bounded = false

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }
    /// The index into the user's app states of the `position`th app weighed.
    public subscript(position: Int) -> Int32 { entries[position].index }

    /// Whether the app at `index` is weighed.
    public func contains(_ index: Int32) -> Bool {
        let p = position(of: index)
        return p < entries.count && entries[p].index == index
    }

    /// Notes an open of the app at `index`: it is now the most recently opened.
    mutating func opened(_ index: Int32) {
        opens += 1
        var p = position(of: index)
        if p < entries.count && entries[p].index == index {
            entries[p].stamp = opens
            return
        }
        if entries.count == Self.limit {
            bounded = true
            var oldest = 0
            for j in 1..<entries.count where entries[j].stamp < entries[oldest].stamp { oldest = j }
            entries.remove(at: oldest)
            if oldest < p { p -= 1 }
        }
        entries.insert(Entry(index: index, stamp: opens), at: p)
    }

    /// Where `index` is or would go in the list: apps are added in index order, so a new one
    /// mostly goes last.
    private func position(of index: Int32) -> Int {
        if let last = entries.last, last.index < index { return entries.count }
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].index < index { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
