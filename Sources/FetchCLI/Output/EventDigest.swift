import Crypto
import FetchCore

/// A SHA-256 digest of the events a run reads: what a shard report records of its input, so
/// that `merge` refuses shards of different inputs even when their paths match.
///
/// The digest covers every event before the shard's filter (each shard reads the whole input),
/// then the user and app names by id: the same log, store or database gives the same digest,
/// whatever its path.
struct EventDigest {
    private var hasher = SHA256()
    /// Events packed here and hashed a buffer at a time: one hash update per event would cost
    /// more than the event's replay.
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    mutating func add(_ e: UsageEvent) {
        append(e.time.millis)
        append(e.user)
        append(e.app)
        append(e.value)
        append(e.offsetMinutes)
        buffer.append(e.kind.rawValue)
        buffer.append(e.unixForm ? 1 : 0)
        if buffer.count >= 1 << 16 { drain() }
    }

    /// The digest, as hex, of what was added and of the names; call once the input is read.
    mutating func finish(users: NameTable, apps: NameTable) -> String {
        for table in [users, apps] {
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
