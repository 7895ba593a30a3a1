#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

/// The rows of several parts with no user in common, merged in name order: read from the parts,
/// in the order of an index made once (a part and a place for each row).
final class MergedUserRows: SortedUserRows {
    private let parts: [UserRows]
    private let order: [(part: Int, index: Int)]

    init(_ parts: [UserRows]) {
        self.parts = parts
        var order: [(part: Int, index: Int)] = []
        order.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        var next = [Int](repeating: 0, count: parts.count)
        while true {
            // The part whose next row comes first by name (parts are few: a scan of their heads).
            var best = -1
            for p in parts.indices where next[p] < parts[p].count {
                if best < 0 || parts[p].user(at: next[p]) < parts[best].user(at: next[best]) { best = p }
            }
            guard best >= 0 else { break }
            order.append((best, next[best]))
            next[best] += 1
        }
        self.order = order
    }

    var count: Int { order.count }
    var days: Int { parts.reduce(0) { $0 + $1.days } }
    func user(at i: Int) -> String { parts[order[i].part].user(at: order[i].index) }
    func row(at i: Int) -> ReplayResult.UserRow { parts[order[i].part][order[i].index] }
    func encodedRow(at i: Int) -> Data? { parts[order[i].part].encodedRow(at: order[i].index) }
    func spent(at i: Int) -> UserRows.Spent { parts[order[i].part].spent(at: order[i].index) }
}
