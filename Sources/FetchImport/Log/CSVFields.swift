import FetchCore

/// Splits one line of a CSV file of unknown shape (RFC 4180) into its fields.
///
/// For imported exports, whose columns vary; the canonical log has its own byte parser on the
/// hot path. A quoted field may hold commas and doubled quotes, not a line break. A line that is
/// not RFC 4180 is read once more with backslash escapes in quoted fields (`\"`, `\\`), as
/// AWARE's own exports (MySQL's) write them; a line valid either way is read the RFC's way.
public enum CSVFields {
    public static func split(_ line: Substring) throws(ImportProblem) -> [String] {
        do {
            return try split(line, backslashes: false)
        } catch {
            guard line.contains("\\") else { throw error }
            do { return try split(line, backslashes: true) } catch _ { throw error }
        }
    }

    static func split(_ line: Substring, backslashes: Bool) throws(ImportProblem) -> [String] {
        var fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var chars = line.unicodeScalars[...]
        if chars.last == "\r" { chars.removeLast() }
        while let c = chars.popFirst() {
            if quoted {
                if backslashes, c == "\\", let next = chars.first, next == "\"" || next == "\\" {
                    field.unicodeScalars.append(next); chars.removeFirst()
                } else if c == "\"" {
                    if chars.first == "\"" { field.unicodeScalars.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.unicodeScalars.append(c) }
            } else if c == "\"" {
                guard field.isEmpty, !wasQuoted else { throw ImportProblem("malformed", "a quote inside an unquoted field") }
                quoted = true; wasQuoted = true
            } else if c == "," {
                fields.append(field); field = ""; wasQuoted = false
            } else {
                guard !wasQuoted else { throw ImportProblem("malformed", "text after a closing quote") }
                field.unicodeScalars.append(c)
            }
        }
        guard !quoted else { throw ImportProblem("malformed", "a quoted field is not closed on its line") }
        fields.append(field)
        return fields
    }
}
