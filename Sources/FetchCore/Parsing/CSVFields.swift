/// Splits one line of a CSV file of unknown shape (RFC 4180) into its fields.
///
/// For imported exports, whose columns vary; the canonical log has its own byte parser on the
/// hot path. A quoted field may hold commas and doubled quotes, not a line break.
public enum CSVFields {
    public static func split(_ line: Substring) throws(ImportProblem) -> [String] {
        var fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var chars = line.unicodeScalars[...]
        if chars.last == "\r" { chars.removeLast() }
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
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
