import FetchCore

/// Splits a MySQL or MariaDB dump (`mysqldump`, `mariadb-dump`, phpMyAdmin's export) into
/// tokens, a line at a time: a string, comment or statement may run over several lines.
///
/// Hand-written: no SQL library in the dependency graph reads MySQL's dialect, and a dump's
/// grammar as far as this needs it (statements, parentheses, quoted names and strings, comments)
/// is small. The lexer keeps what it holds bounded: a string longer than ``maxValueBytes`` is an
/// error unless the parser does not keep it (``keeping``), and then it is counted, not held.
struct SQLDumpLexer {
    enum Token: Equatable {
        /// A bare word: a keyword, a number (`-1`, `1710136804120.0`), `NULL`, an unquoted name; a
        /// point is part of a word (a qualified name's point before a backquote is a word of its own).
        case word(String)
        /// A name in backquotes.
        case name(String)
        /// A string in single or double quotes, its escapes resolved.
        case string(String)
        /// One of `( ) , ;`
        case punct(UInt8)
    }

    static let maxValueBytes = 1 << 16
    /// An executable comment whose version is at least this (MySQL's and MariaDB's `MMmmpp` form,
    /// 20.0.0) is one no server runs: a comment.
    static let newestVersion = 200_000

    private enum Mode { case code, blockComment, string(quote: UInt8) }
    private var mode = Mode.code
    /// Inside an executable comment (`/*!40101 … */`, MariaDB's `/*M!100101 … */`): its text is
    /// code, as a server reads it, and its `*/` ends it.
    private var executable = false
    /// The line being read (set by the parser), and the line where the open string or comment
    /// began: what a cut-off dump's message names.
    var line = 0
    private(set) var openedOn = 0
    private var buffer: [UInt8] = []
    private var tooLong = false
    /// Whether the parser keeps the strings now coming (its answer to the last token): when not,
    /// their bytes are dropped.
    private var keeping = true

    /// Whether a string or comment is still open: at the end of the dump, it was cut off.
    var isInside: Bool { openKind != nil }

    /// What is still open, in words ("a comment opened with /*"), nil when nothing is.
    var openKind: String? {
        switch mode {
        case .code: executable ? "an executable comment opened with /*!" : nil
        case .blockComment: "a comment opened with /*"
        case .string(let quote): quote == UInt8(ascii: "`") ? "a name opened with `" : "a quoted value opened with \(Character(UnicodeScalar(quote)))"
        }
    }

    /// The tokens of one line (without its line break), handed to `emit` in order; `emit` says
    /// whether the strings after the token are to be kept.
    mutating func feed(_ line: Substring, _ emit: (Token) throws(ImportProblem) -> Bool) throws(ImportProblem) {
        let bytes = Array(line.utf8)
        var i = 0
        if case .string = mode { append(UInt8(ascii: "\n")) }
        while i < bytes.count {
            let c = bytes[i]
            switch mode {
            case .blockComment:
                if c == UInt8(ascii: "*"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                    mode = .code
                    i += 1
                }
                i += 1
            case .string(let quote):
                if c == UInt8(ascii: "\\"), quote != UInt8(ascii: "`") {
                    guard i + 1 < bytes.count else { i += 1; continue }
                    append(Self.escaped(bytes[i + 1]))
                    i += 2
                } else if c == quote {
                    if i + 1 < bytes.count, bytes[i + 1] == quote {
                        append(quote)
                        i += 2
                    } else {
                        mode = .code
                        i += 1
                        keeping = try emit(try finishString(quote))
                    }
                } else {
                    append(c)
                    i += 1
                }
            case .code:
                i = try code(bytes, at: i, emit)
            }
        }
    }

    /// Reads code from `i`: a token, a comment's start, or white space; returns where it ends.
    private mutating func code(_ bytes: [UInt8], at start: Int, _ emit: (Token) throws(ImportProblem) -> Bool) throws(ImportProblem) -> Int {
        var i = start
        let c = bytes[i]
        let next = i + 1 < bytes.count ? bytes[i + 1] : nil
        switch c {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            return i + 1
        case UInt8(ascii: "#"):
            return bytes.count
        case UInt8(ascii: "-") where next == UInt8(ascii: "-") && (i + 2 == bytes.count || [9, 32].contains(bytes[i + 2])):
            return bytes.count
        case UInt8(ascii: "*") where executable && next == UInt8(ascii: "/"):
            executable = false
            return i + 2
        case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
            openedOn = line
            var j = i + 2
            // `/*!` with a version, or MariaDB's `/*M!`: code a server runs (mysqldump's SETs,
            // and any statement a tool writes so), read as code.
            if j < bytes.count, bytes[j] == UInt8(ascii: "M"), j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "!") { j += 1 }
            if !executable, j < bytes.count, bytes[j] == UInt8(ascii: "!") {
                j += 1
                var version = 0, digits = 0
                while j < bytes.count, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9"), digits < 7 {
                    version = version * 10 + Int(bytes[j] - UInt8(ascii: "0"))
                    digits += 1
                    j += 1
                }
                // A version no server has (MariaDB's `/*M!999999\- enable the sandbox mode */`) is never run.
                if version < Self.newestVersion {
                    executable = true
                    return j
                }
            }
            mode = .blockComment
            return i + 2
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
            openedOn = line
            mode = .string(quote: c)
            buffer.removeAll(keepingCapacity: true)
            tooLong = false
            return i + 1
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: ";"):
            keeping = try emit(.punct(c))
            return i + 1
        default:
            while i < bytes.count, Self.isWordByte(bytes[i]) {
                // An executable comment's end right after a word (`KEYS*/`) is not part of it.
                if executable, bytes[i] == UInt8(ascii: "*"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") { break }
                i += 1
            }
            guard i > start else {
                throw ImportProblem("bad SQL", "'\(InputBounds.printable(String(decoding: [c], as: UTF8.self)))' where a dump has none")
            }
            guard i - start <= 64 else { throw ImportProblem("bad SQL", "a word longer than 64 characters") }
            keeping = try emit(.word(String(decoding: bytes[start..<i], as: UTF8.self)))
            return i
        }
    }

    private static func isWordByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                                                                     UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: "!"),
                                                                     UInt8(ascii: "="), UInt8(ascii: "*"), UInt8(ascii: ":")].contains(c)
            || c >= 0x80
    }

    /// MySQL's backslash escapes in a string: `\0 \b \n \r \t \Z`, and any other character as itself.
    private static func escaped(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0"): 0
        case UInt8(ascii: "b"): 8
        case UInt8(ascii: "n"): 10
        case UInt8(ascii: "r"): 13
        case UInt8(ascii: "t"): 9
        case UInt8(ascii: "Z"): 26
        default: c
        }
    }

    private mutating func append(_ c: UInt8) {
        guard keeping else { return }
        if buffer.count < Self.maxValueBytes { buffer.append(c) } else { tooLong = true }
    }

    private mutating func finishString(_ quote: UInt8) throws(ImportProblem) -> Token {
        if tooLong { throw ImportProblem("value too long", "a quoted value longer than \(Self.maxValueBytes) bytes") }
        guard let text = String(validating: buffer, as: UTF8.self) else { throw ImportProblem("not UTF-8", "a quoted value is not valid UTF-8") }
        return quote == UInt8(ascii: "`") ? .name(text) : .string(text)
    }
}
