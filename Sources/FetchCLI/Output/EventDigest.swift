import Crypto
import FetchCore
import FetchStorage

/// A source whose events, as read, go into a SHA-256 digest: what a shard report records of
/// its input, so that `merge` refuses shards of different inputs even when their paths match.
///
/// The digest covers every event before the shard's filter (each shard reads the whole input),
/// then the user and app names by id: the same log, store or database gives the same digest,
/// whatever its path.
struct DigestingSource<Base: UsageEventSource>: UsageEventSource {
    var base: Base
    private var hasher = SHA256()
    /// Events packed here and hashed a buffer at a time: one hash update per event would cost
    /// more than the event's replay.
    private var buffer: [UInt8] = []

    init(base: Base) {
        self.base = base
        buffer.reserveCapacity(1 << 16)
    }

    var users: NameTable { base.users }
    var apps: NameTable { base.apps }
    var progress: Double? { base.progress }

    mutating func next() throws -> UsageEvent? {
        guard let e = try base.next() else { return nil }
        append(e.time.millis)
        append(e.user)
        append(e.app)
        append(e.value)
        append(e.offsetMinutes)
        buffer.append(e.kind.rawValue)
        buffer.append(e.unixForm ? 1 : 0)
        if buffer.count >= 1 << 16 { drain() }
        return e
    }

    /// The digest, as hex, of what was read; call once the source is exhausted.
    mutating func finish() -> String {
        for table in [base.users, base.apps] {
            append(Int64(table.count))
            for name in table.names {
                append(Int64(name.utf8.count))
                buffer.append(contentsOf: name.utf8)
            }
        }
        drain()
        let hex = Array("0123456789abcdef")
        return String(hasher.finalize().flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] })
    }

    private mutating func append<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.littleEndian) { buffer.append(contentsOf: $0) }
    }

    private mutating func drain() {
        hasher.update(data: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
