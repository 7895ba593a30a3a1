/// Byte comparisons for the parsing hot path.
enum Bytes {
    /// Whether `count` bytes at `a` and `b` are equal, eight at a time.
    ///
    /// Hand-written because the names and words a log row is checked against are short, where
    /// a call to `memcmp` cost more than the comparison (it showed in profiles).
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i + 8 <= count {
            if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }
}
