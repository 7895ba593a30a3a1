import FetchCore

/// One of `count` disjoint parts of a population, chosen by a stable hash of the user's name,
/// so that every process, on every machine, puts a user in the same shard.
public struct UserShard: Hashable, Sendable, CustomStringConvertible {
    /// The most shards a population may be split into.
    public static let maxCount = 1_024

    public let index: Int
    public let count: Int

    /// `i/n`, with n from 1 to ``maxCount`` and i from 0 to n-1; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 4 && !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let i = Int(parts[0]), let n = Int(parts[1]), (1...Self.maxCount).contains(n), (0..<n).contains(i) else { return nil }
        index = i
        count = n
    }

    /// Whether `user` belongs to this shard.
    public func contains(user: String) -> Bool {
        StableHash.of(user) % UInt64(count) == UInt64(index)
    }

    public var description: String { "\(index)/\(count)" }
}
