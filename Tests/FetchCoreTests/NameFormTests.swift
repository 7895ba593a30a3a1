import FetchCore
import Foundation
import Testing

/// Issue 64: one name, one form. Swift's strings compare by canonical equivalence, so `josé`
/// composed and decomposed would be one key in memory and two rows in a store; only the composed
/// form (NFC) passes the one rule for names.
struct NameFormTests {
    /// Scalars that compose, decompose or reorder: Latin letters and marks, precomposed letters,
    /// Hangul syllables and jamo, singletons (U+2000, U+212B), marks of other combining classes.
    static let pool: [UInt32] = [0x61, 0x65, 0x6F, 0x41, 0x2E, 0xE9, 0xC5, 0x301, 0x308, 0x323, 0x31B, 0x345, 0xAC00, 0x1100,
                                 0x1161, 0x11A8, 0x2000, 0x212B, 0x3B1, 0x1F00, 0x5D0, 0x5B8, 0x915, 0x93C, 0x30AB, 0x3099, 0x1E0A]

    static func random(_ rng: inout SplitMix64) -> String {
        let n = 1 + Int(rng.next() % 6)
        return String(String.UnicodeScalarView((0..<n).map { _ in Unicode.Scalar(pool[Int(rng.next() % UInt64(pool.count))])! }))
    }

    /// A scalar a string literal may not hold (a noncharacter), as text.
    static func scalar(_ value: UInt32) -> String { String(Character(Unicode.Scalar(value)!)) }

    static func startsWithMark(_ name: String) -> Bool {
        name.unicodeScalars.first.map { [.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory) } ?? false
    }

    /// Characters that reorder or hide what is shown, noncharacters and a mark with nothing before
    /// it: refused by the one rule, whatever else the name holds, saying which.
    @Test(arguments: [("user\u{202E}gnp.exe", "bidirectional"), ("a\u{2067}b", "bidirectional"), ("a\u{200D}b", "invisible"),
                      ("com.app\u{200C}", "invisible"), ("x\u{E0041}", "invisible"), ("app" + Self.scalar(0xFFFE), "noncharacter"),
                      (Self.scalar(0xFDD0), "noncharacter"), ("\u{301}abc", "combining mark"), ("\u{20DD}", "combining mark")]
                    as [(String, String)])
    func aNameThatHidesOrReordersIsRefused(name: String, why: String) {
        #expect(InputBounds.nameProblem(name)?.contains(why) == true, "\(InputBounds.nameProblem(name) ?? "accepted")")
    }

    @Test func onlyTheComposedFormOfANameIsAccepted() {
        var rng = SplitMix64(seed: 64)
        for _ in 0..<5_000 {
            let name = Self.random(&rng)
            let composed = name.precomposedStringWithCanonicalMapping, decomposed = name.decomposedStringWithCanonicalMapping
            // Reference: a name is accepted exactly when it is its own composed form and does not
            // start with a combining mark (which has nothing to combine with there).
            let lone = Self.startsWithMark(composed)
            #expect((InputBounds.nameProblem(name) == nil) == (name.utf8.elementsEqual(composed.utf8) && !lone), "\(Array(name.unicodeScalars))")
            #expect((InputBounds.nameProblem(composed) == nil) == !lone)
            // Of two forms Swift holds equal, at most one passes: no door reads them as one name.
            if !composed.utf8.elementsEqual(decomposed.utf8) {
                #expect(composed == decomposed)
                #expect(InputBounds.nameProblem(decomposed) != nil)
            }
        }
    }

    @Test(arguments: ["jose\u{301}", "A\u{30A}", "\u{1100}\u{1161}", "\u{2000}", "\u{212B}"])
    func aDecomposedNameIsRefusedSayingWhy(name: String) {
        #expect(InputBounds.nameProblem(name) == "is not in Unicode's composed form (NFC): write it composed")
    }

    /// A log row with the decomposed form of a name is refused by the row's reader, naming the field.
    @Test func aLogRowWithADecomposedNameIsRefusedNamingTheField() throws {
        func parse(_ line: String) throws(RowProblem) -> UsageEvent? {
            var parser = CSVLineParser(decoder: RowDecoder())
            var bytes = Array(line.utf8)
            return try bytes.withUnsafeMutableBufferPointer { (b) throws(RowProblem) in try parser.parse(UnsafeBufferPointer(b)) }
        }
        do {
            _ = try parse("2025-01-06T08:00:00+01:00,jose\u{301},com.app,open,")
            Issue.record("a decomposed user name was read")
        } catch {
            #expect(error.message.contains("field 'user'") && error.message.contains("NFC"), "\(error.message)")
        }
        #expect(try parse("2025-01-06T08:00:00+01:00,jos\u{E9},com.app,open,") != nil)
    }

    /// The decomposed form after the composed one is met: refused all the same, never found as
    /// the composed name by the table of names already read (a `String` key).
    @Test func aDecomposedNameAfterItsComposedTwinIsStillRefused() throws {
        var parser = CSVLineParser(decoder: RowDecoder())
        func parse(_ line: String) throws(RowProblem) -> UsageEvent? {
            var bytes = Array(line.utf8)
            return try bytes.withUnsafeMutableBufferPointer { (b) throws(RowProblem) in try parser.parse(UnsafeBufferPointer(b)) }
        }
        #expect(try parse("2025-01-06T08:00:00+01:00,jos\u{E9},caf\u{E9}.app,open,") != nil)
        for row in ["2025-01-06T09:00:00+01:00,jose\u{301},cafe\u{301}.app,open,", "2025-01-06T09:00:00+01:00,jos\u{E9},cafe\u{301}.app,open,"] {
            do {
                _ = try parse(row)
                Issue.record("'\(row)' was read")
            } catch {
                #expect(error.message.contains("NFC"), "\(error.message)")
            }
        }
    }
}
