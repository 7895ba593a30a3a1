import Foundation

/// The documented range of every value that comes from outside: a log row, a scenario, a
/// request or a command-line option. Readers check these before any arithmetic, so the engine
/// only ever sees values whose sums and products fit in `Int64`.
///
/// With every time in `timestamps` and every duration at most `maxDuration`, a time plus a
/// duration stays below 2^43; energies stay below 2^53 microjoules per fetch.
public enum InputBounds {
    /// Timestamps from 1970-01-01T00:00:00Z (included) to 2100-01-01T00:00:00Z (excluded).
    public static let timestamps: Range<Int64> = 0..<4_102_444_800_000
    /// The longest duration any text may give (`366d`): intervals, horizons, scenario times.
    public static let maxDuration: Int64 = 366 * Millis.day
    /// The most bytes of one fetch, payload or transfer: 10 GB.
    public static let maxBytes: Int64 = 10_000_000_000
    /// The longest plan horizon, and how far past a user's last event a plan may start.
    public static let maxHorizon: Int64 = 7 * Millis.day
    /// UTC offsets a log, a store or a request may carry, in minutes: within ±18 hours, as
    /// ISO-8601 and every time zone allow.
    public static let offsetMinutes: ClosedRange<Int> = -LocalTime.maxOffsetMinutes ... LocalTime.maxOffsetMinutes
    /// The longest user, app, tenant or id name, in UTF-8 bytes.
    public static let maxNameBytes = 200
    /// The shortest mean gap of an `updates:` content model: shorter ones would make the
    /// engine step through more updates than a log has events.
    public static let minUpdateGap: Int64 = Millis.minute
    /// `adaptive`'s minimum of expected rescues per joule: more than 0, at most this.
    public static let maxRescuesPerJoule = 10.0

    /// Why `name` is not an acceptable name, or nil when it is: 1 to `maxNameBytes` bytes with
    /// no control character (NUL, escape, newline, DEL …), no byte-order mark (U+FEFF), nothing
    /// invisible or reordering (a bidirectional control, ZWJ, a tag character …), in Unicode's composed form (NFC).
    ///
    /// The one rule for names from every door (a log row, an import, a request's path or body, a
    /// shard, the command line), and names are never rewritten: a name some decoder would change
    /// (Foundation's UTF-8 decoding drops a leading U+FEFF) is refused instead, so two doors can
    /// never read one name as two, or two names as one. Swift's strings compare and hash by
    /// canonical equivalence, so `josé` composed and decomposed would be one key of a dictionary
    /// and two rows of a store: only the composed form is taken.
    public static func nameProblem(_ name: UnsafeBufferPointer<UInt8>) -> String? {
        if name.isEmpty { return "is empty" }
        if name.count > maxNameBytes { return "is \(name.count) bytes long (at most \(maxNameBytes))" }
        // One pass, as it runs on every log row: C0 controls, DEL, C1 controls (U+0080–U+009F,
        // two bytes in UTF-8: 0xC2 then 0x80–0x9F), U+FEFF (0xEF 0xBB 0xBF), and whether any
        // scalar may not be its own composed form (a lead byte of U+0300 or above, ``isComposed(_:)``).
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0, highest: UInt8 = 0
        for c in name {
            if c < 0x20 || c == 0x7F || (previous == 0xC2 && c >= 0x80 && c <= 0x9F) { return "holds a control character" }
            if c == 0xBF && previous == 0xBB && beforePrevious == 0xEF { return "holds a byte-order mark (U+FEFF)" }
            beforePrevious = previous
            previous = c
            highest = max(highest, c)
        }
        guard highest >= 0xCC else { return nil }
        if let hidden = invisibleProblem(name) { return hidden }
        return isComposed(name) ? nil : "is not in Unicode's composed form (NFC): write it composed"
    }

    /// Why a name with a scalar of U+0300 or above would show as another, or nil: a character
    /// that reorders what follows (a bidirectional control), one that joins or hides (ZWJ, ZWNJ,
    /// a zero-width space, a word joiner, a tag character), a noncharacter (U+FFFE, U+FDD0 …),
    /// or a combining mark with nothing before it to combine with.
    static func invisibleProblem(_ name: UnsafeBufferPointer<UInt8>) -> String? {
        guard let text = String(validating: name, as: UTF8.self) else { return nil }  // its decoder's to refuse
        for (i, scalar) in text.unicodeScalars.enumerated() {
            let v = scalar.value
            let shown = "U+" + String(v, radix: 16, uppercase: true)
            if v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                return "holds a bidirectional control (\(shown)), which reorders what is shown"
            }
            if (0x200B...0x200D).contains(v) || v == 0x2060 || (0xE0000...0xE007F).contains(v) {
                return "holds an invisible character (\(shown))"
            }
            if (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE { return "holds a noncharacter (\(shown))" }
            if i == 0, [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory) {
                return "starts with a combining mark (\(shown)), with nothing to combine with"
            }
        }
        return nil
    }

    /// Whether `name` (valid UTF-8 or not) is in Unicode normalization form C, asked of Foundation.
    ///
    /// Only names with a byte of 0xCC or above come here: every scalar below U+0300 is its own
    /// composed form and combines with nothing before it, and those are the lead bytes below
    /// 0xCC, so the names of nearly every log are passed in ``nameProblem(_:)``'s own loop.
    static func isComposed(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let text = String(validating: name, as: UTF8.self) else { return true }  // its decoder's to refuse
        return text.precomposedStringWithCanonicalMapping.utf8.elementsEqual(name)
    }

    /// ``nameProblem(_:)`` for a `String`.
    public static func nameProblem(_ name: String) -> String? {
        var copy = name
        return copy.withUTF8 { nameProblem($0) }
    }

    /// Text from outside made safe to print: control characters and invalid UTF-8 become
    /// escapes (`\u{1B}`), and anything past `limit` characters is cut with `…`.
    public static func printable(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int = 80) -> String {
        printable(String(decoding: bytes, as: UTF8.self), limit: limit)
    }

    /// ``printable(_:limit:)`` for a `String`.
    public static func printable(_ text: String, limit: Int = 80) -> String {
        var out = ""
        var n = 0
        for scalar in text.unicodeScalars {
            if n == limit { return out + "…" }
            n += 1
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFFFD || v == 0xFEFF {
                out += "\\u{\(String(v, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Int64 {
    /// `self + other`, held at `Int64.max` (or `.min`) instead of trapping: for running totals
    /// of reported values, whose count nothing bounds.
    @inlinable
    public func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
