import FetchCore

/// Counts identical rows of one user at one instant, so that each keeps its own key: the
/// occurrence number both drivers store, so a log ingested twice adds nothing.
public struct Occurrences {
    public init() {}
    private var instant: [Int64] = []
    private var seen: [[UInt64]] = []

    public mutating func next(_ e: UsageEvent) -> Int {
        let u = Int(e.user)
        while instant.count <= u { instant.append(.min); seen.append([]) }
        if instant[u] != e.time.millis {
            instant[u] = e.time.millis
            seen[u].removeAll(keepingCapacity: true)
        }
        let key = UInt64(e.kind.rawValue) << 48 | UInt64(UInt32(bitPattern: e.app)) << 16 | UInt64(UInt16(bitPattern: e.value))
        let n = seen[u].reduce(0) { $0 + ($1 == key ? 1 : 0) }
        seen[u].append(key)
        return n
    }
}
