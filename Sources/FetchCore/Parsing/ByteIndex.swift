/// An open-addressing map from byte strings to ids, the bytes kept in one buffer.
///
/// Hand-written because the names of every log row are looked up here: a `[String: Int32]`
/// lookup first makes a `String` (validating and, past 15 bytes, allocating) and then hashes and
/// compares it as text, which profiles showed as most of the interning cost. Its storage is
/// raw buffers it owns, so a lookup pays no reference counting or bounds checks (arrays held in
/// a class showed as retains and releases on every row).
///
/// Its stored state is accessed without dynamic exclusivity checks: it is used for every row of
/// a log, and no method keeps an access open across a call that could start another.
final class ByteIndex {
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var byteCapacity = 256
    @exclusivity(unchecked) private var byteCount = 0
    /// Per key: where its bytes start, how many, and its id.
    @exclusivity(unchecked) private var starts: [Int] = []
    @exclusivity(unchecked) private var lengths: [Int] = []
    @exclusivity(unchecked) private var ids: [Int32] = []
    /// Indexes into the keys, or -1 for an empty slot; a power of two, at most half full.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var slotCount = 64

    /// A per-table random seed (the standard `Hasher`'s, which is seeded per process), so that
    /// crafted names cannot be chosen to collide. It changes where names sit in `slots`, never
    /// which id a name gets.
    private let seed: UInt64 = {
        var h = Hasher()
        h.combine(0)
        return UInt64(truncatingIfNeeded: h.finalize())
    }()

    init() {
        bytes = .allocate(capacity: byteCapacity)
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: -1, count: slotCount)
    }

    deinit {
        bytes.deallocate()
        slots.deallocate()
    }

    func find(_ key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let mask = slotCount - 1
        var s = hash(key) & mask
        while true {
            let k = Int(slots[s])
            if k < 0 { return nil }
            if equals(k, key) { return ids.withUnsafeBufferPointer { $0[k] } }
            s = (s + 1) & mask
        }
    }

    func insert(_ key: UnsafeBufferPointer<UInt8>, id: Int32) {
        if (ids.count + 1) * 2 > slotCount { grow() }
        if byteCount + key.count > byteCapacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCapacity * 2, byteCount + key.count))
            bigger.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = bigger
            byteCapacity = max(byteCapacity * 2, byteCount + key.count)
        }
        if let base = key.baseAddress { (bytes + byteCount).update(from: base, count: key.count) }
        starts.append(byteCount)
        lengths.append(key.count)
        byteCount += key.count
        ids.append(id)
        place(ids.count - 1, hash: hash(key))
    }

    @inline(__always)
    private func equals(_ k: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let (start, length) = (starts.withUnsafeBufferPointer { $0[k] }, lengths.withUnsafeBufferPointer { $0[k] })
        guard length == key.count else { return false }
        return length == 0 || Bytes.equal(bytes + start, key.baseAddress!, count: length)
    }

    private func place(_ k: Int, hash: Int) {
        let mask = slotCount - 1
        var s = hash & mask
        while slots[s] >= 0 { s = (s + 1) & mask }
        slots[s] = Int32(k)
    }

    private func grow() {
        slots.deallocate()
        slotCount *= 2
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: -1, count: slotCount)
        for k in ids.indices { place(k, hash: hash(UnsafeBufferPointer(start: bytes + starts[k], count: lengths[k]))) }
    }

    /// A multiply-mix over 8-byte words: `Hasher` (SipHash) cost as much as the rest of a row's
    /// parse for names this short.
    private func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h = seed ^ (UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15)
        let raw = UnsafeRawBufferPointer(key)
        var i = 0
        while i + 8 <= raw.count {
            h = Self.mix(h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < raw.count {
            var tail: UInt64 = 0
            for j in i..<raw.count { tail = tail << 8 | UInt64(raw[j]) }
            h = Self.mix(h ^ tail)
        }
        return Int(truncatingIfNeeded: Self.mix(h))
    }

    @inline(__always)
    private static func mix(_ x: UInt64) -> UInt64 {
        let m = x.multipliedFullWidth(by: 0x9FB2_1C65_1E98_DF25)
        return m.high ^ m.low
    }
}
