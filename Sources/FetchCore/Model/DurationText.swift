/// Durations as people write them in scenarios and on the command line: `500ms`, `30s`,
/// `15m`, `1.5h`, `2d`.
public enum DurationText {
    /// Milliseconds of a duration text, or nil when it is not one or is longer than
    /// ``InputBounds/maxDuration`` (checked before converting, so no text can overflow).
    public static func parse(_ text: String) -> Int64? {
        guard text.utf8.count <= 32 else { return nil }
        let units: [(String, Double)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            // "ms" must win over "s": a number part that ends in "m" is not a number.
            guard let value = Double(number), value.isFinite, value >= 0,
                  number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { continue }
            guard value * scale <= Double(InputBounds.maxDuration) else { return nil }
            return Int64((value * scale).rounded())
        }
        return nil
    }

    /// The shortest exact text for a duration: `15m`, `90s`, `2h`, `250ms`.
    public static func format(_ ms: Int64) -> String {
        if ms != 0 && ms % Millis.day == 0 { return "\(ms / Millis.day)d" }
        if ms != 0 && ms % Millis.hour == 0 { return "\(ms / Millis.hour)h" }
        if ms != 0 && ms % Millis.minute == 0 { return "\(ms / Millis.minute)m" }
        if ms % Millis.second == 0 { return "\(ms / Millis.second)s" }
        return "\(ms)ms"
    }
}
