import FetchCore

extension AwareDump {
    /// The AWARE table a name is, told apart by case as a server set with `lower_case_table_names`
    /// does not (its dump may write `SCREEN`).
    static func awareTable(_ name: String) -> AwareReader.Table? {
        AwareReader.Table(rawValue: name) ?? AwareReader.Table(rawValue: name.lowercased())
    }

    /// Words that start a definition in `CREATE TABLE` other than a column's.
    static let definitionWords: Set<String> = ["PRIMARY", "KEY", "UNIQUE", "INDEX", "CONSTRAINT", "FOREIGN", "FULLTEXT",
                                                       "SPATIAL", "CHECK", "PERIOD"]

    /// The name in a word such as `aware.screen`: its part after the last point.
    static func lastPart(_ word: String) -> String {
        String(word.split(separator: ".", omittingEmptySubsequences: false).last ?? Substring(word))
    }

    /// A tuple's item as text: a string, a number or word, a string after a charset introducer
    /// (`_utf8mb4'…'`, `_binary'…'`), a hex literal's text (`0x636f6d`, `X'636f6d'`, as
    /// `mysqldump --hex-blob` writes binary columns); nil for `NULL`.
    func value(_ item: [SQLDumpLexer.Token], keep: Bool) throws(ImportProblem) -> String? {
        guard keep else { return nil }
        switch item.count {
        case 1:
            switch item[0] {
            case .string(let s): return s
            case .word(let w) where w.count > 2 && (w.hasPrefix("0x") || w.hasPrefix("0X")): return try Self.hexText(w.dropFirst(2))
            case .word(let w) where w.count > 2 && w.hasPrefix("0b") && w.dropFirst(2).allSatisfy({ $0 == "0" || $0 == "1" }):
                throw ImportProblem("bad SQL", "a bit literal, \(Self.describe(item[0])), where a text or number is read")
            case .word(let w): return w.uppercased() == "NULL" ? nil : w
            default: break
            }
        case 2:
            if case .word(let w) = item[0], w.hasPrefix("_"), case .string(let s) = item[1] { return s }
            if case .word(let w) = item[0], w.hasPrefix("_"), case .word(let h) = item[1], h.hasPrefix("0x") || h.hasPrefix("0X") {
                return try Self.hexText(h.dropFirst(2))
            }
            if case .word(let w) = item[0], w == "X" || w == "x", case .string(let h) = item[1] {
                guard h.count % 2 == 0 else { throw ImportProblem("bad SQL", "X'\(InputBounds.printable(h, limit: 40))' has an odd number of digits") }
                return try Self.hexText(Substring(h))
            }
        default: break
        }
        throw ImportProblem("bad SQL", "a value this does not read: \(item.map(Self.describe).joined(separator: " "))")
    }

    /// The text a hex literal's digits spell (an odd count has a zero before it, as MySQL reads it).
    static func hexText(_ digits: Substring) throws(ImportProblem) -> String {
        var bytes: [UInt8] = [], high: UInt8? = digits.count % 2 == 1 ? 0 : nil
        bytes.reserveCapacity(digits.count / 2 + 1)
        for c in digits.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: throw ImportProblem("bad SQL", "0x\(InputBounds.printable(String(digits), limit: 40)) is not a hex literal")
            }
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ImportProblem("not UTF-8", "the hex literal 0x\(InputBounds.printable(String(digits), limit: 40)) is not UTF-8 text")
        }
        return text
    }

    static func describe(_ token: SQLDumpLexer.Token) -> String {
        switch token {
        case .word(let w): "'\(InputBounds.printable(w, limit: 40))'"
        case .name(let n): "`\(InputBounds.printable(n, limit: 40))`"
        case .string(let s): "'\(InputBounds.printable(s, limit: 40))'"
        case .punct(let p): "'\(String(decoding: [p], as: UTF8.self))'"
        }
    }
}
