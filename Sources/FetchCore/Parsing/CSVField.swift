/// The one way a CSV field is written: reports, `replay --trace` and `import` all use it, so a
/// name holding a comma, a quote or a line break reads back as the same name.
package enum CSVField {
    /// `text` quoted when it must be (a comma, a quote, a line break, or space at either end),
    /// with its quotes doubled; as it is otherwise.
    public static func text(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            || text.utf8.first == UInt8(ascii: " ") || text.utf8.last == UInt8(ascii: " ")
        guard needsQuotes else { return text }
        var out = "\""
        for ch in text.unicodeScalars {
            if ch == "\"" { out += "\"\"" } else { out.unicodeScalars.append(ch) }
        }
        return out + "\""
    }
}
