import FetchCore
import Foundation
import Testing

/// The bounds every reader applies to outside input, against a plain reference.
struct InputBoundsTests {
    static func isControl(_ v: UInt32) -> Bool { v < 0x20 || (0x7F...0x9F).contains(v) }

    @Test func namesAreOneTo200BytesWithoutControlCharacters() {
        var rng = SplitMix64(seed: 10)
        let alphabet: [UInt8] = [0x00, 0x09, 0x1B, 0x41, 0x61, 0x2F, 0x7F, 0xC2, 0x85, 0xA0, 0xC3, 0xA9, 0xE2, 0x80, 0xAE, 0xFF]
        for _ in 0..<5_000 {
            let n = Int(rng.next() % 8 == 0 ? rng.next() % 300 : rng.next() % 12)
            let bytes = (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            let problem = bytes.withUnsafeBufferPointer { InputBounds.nameProblem($0) }
            // Reference: the bytes' own C0/DEL, and C1 controls as UTF-8 pairs.
            var control = bytes.contains { $0 < 0x20 || $0 == 0x7F }
            for i in bytes.indices.dropLast() where bytes[i] == 0xC2 && (0x80...0x9F).contains(bytes[i + 1]) { control = true }
            // And a valid name in another form than its composed one (U+2000 is U+2002 composed).
            let composed = String(validating: bytes, as: UTF8.self).map { $0.precomposedStringWithCanonicalMapping.utf8.elementsEqual(bytes) } ?? true
            #expect((problem == nil) == (n >= 1 && n <= 200 && !control && composed), "\(bytes)")
        }
    }

    @Test func printableTextHasNoControlCharactersAndIsCut() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let scalars = (0..<Int(rng.next() % 120)).map { _ in UnicodeScalar(UInt8(truncatingIfNeeded: rng.next())) }
            let text = String(String.UnicodeScalarView(scalars))
            let shown = InputBounds.printable(text, limit: 80)
            #expect(!shown.unicodeScalars.contains { Self.isControl($0.value) })
            #expect(shown.unicodeScalars.count <= 80 * 7 + 1)
        }
        #expect(InputBounds.printable("bogus\u{1B}[2J") == "bogus\\u{1B}[2J")
        #expect(InputBounds.printable(String(repeating: "a", count: 100), limit: 3) == "aaa…")
    }

    @Test(arguments: [("1969-12-31T23:59:59Z", false), ("1970-01-01T00:00:00Z", true), ("2099-12-31T23:59:59.999Z", true),
                      ("2100-01-01T00:00:00Z", false), ("2100-01-01T01:00:00+02:00", true), ("4102444799", true), ("4102444800", false),
                      ("-1", false), ("999999999999", false)])
    func timestampsLieFrom1970To2100(text: String, accepted: Bool) {
        #expect(((try? TimestampParser.parse(text: text)) != nil) == accepted)
    }

    @Test func totalsOfReportedValuesSaturateInsteadOfTrapping() {
        #expect(Int64.max.saturatingAdd(1) == .max && Int64.min.saturatingAdd(-1) == .min && Int64(2).saturatingAdd(3) == 5)
    }
}
