import FetchCore

/// The rows of AWARE's tables in a MySQL or MariaDB dump of an AWARE server's database, read a
/// line at a time; every other table is named and skipped.
///
/// A table's columns come from its `INSERT`'s column list when it has one (`--complete-insert`,
/// phpMyAdmin), else from its `CREATE TABLE`. Rows are kept per table, so that ``AwareReader``
/// can take the tables in its order (time zones first) whatever the dump's order (by name).
/// Other statements (`SET`, `DROP`, `LOCK`, `ALTER`, comments) are passed over.
public struct AwareDump {
    /// A row of an AWARE table: its fields in the order of its columns (nil for `NULL`), and the
    /// line its tuple starts on.
    public struct Row: Sendable {
        public var line: Int
        public var fields: [String?]
    }

    /// An AWARE table's columns and rows, in the dump's order.
    public struct TableRows: Sendable {
        public var columns: [String]
        public var rows: [Row] = []
    }

    private enum State {
        case idle
        /// Passing over a statement, at this depth of parentheses.
        case skipping(depth: Int)
        /// `CREATE TABLE`, the words before its parenthesis (the last name is the table's).
        case create(name: String?)
        /// Inside a `CREATE TABLE`'s definitions: the columns so far, the depth, whether the next
        /// word starts a definition.
        case definitions(table: String, columns: [String], depth: Int, atStart: Bool)
        /// `INSERT INTO`, before `VALUES`: the table's name and its column list when given.
        case insert(name: String?, columns: [String]?, inList: Bool)
        /// The tuples of an `INSERT`.
        case values(table: String, keep: Bool, tuple: [String?]?, item: [SQLDumpLexer.Token], depth: Int)
    }

    private var lexer = SQLDumpLexer()
    private var state = State.idle
    private var created: [String: [String]] = [:]
    private var line = 0, tupleLine = 0, kept = 0
    /// The rows of the AWARE tables this reads, by table.
    public private(set) var tables: [AwareReader.Table: TableRows] = [:]
    /// The rows of every other table, by its name: the first ``maxNamedSkipped`` names met.
    public private(set) var skipped: [String: Int] = [:]
    /// Rows of other tables past the first ``maxNamedSkipped``, which are not named.
    public private(set) var skippedUnnamed = 0
    /// Statements that could hold rows and were passed over (an `INSERT … SELECT` into another
    /// table, a `DELIMITER` block), each described, with how many.
    public private(set) var passedOver: [String: Int] = [:]
    /// The open `DELIMITER` block: its delimiter and first line.
    private var delimited: (delimiter: String, line: Int)?
    /// How each AWARE table was spelled where its rows came: two spellings are two tables.
    private var spelled: [AwareReader.Table: String] = [:]
    /// Skipped tables named at most: a dump of many tables (a hostile one) is read in memory
    /// that does not grow with their number.
    public static let maxNamedSkipped = 1_000
    /// Columns a `CREATE TABLE` of an AWARE table may define: AWARE's have about a dozen.
    public static let maxColumns = 1_000
    /// Rows that cannot be more in a dump of a phone's month: a dump past it is refused.
    public static let maxRows = 20_000_000

    public init() {}

    /// Whether a file's first line starts a SQL dump (a comment, or a statement a dump opens with).
    public static func isDump(firstLine: Substring) -> Bool {
        let start = firstLine.drop { $0 == " " || $0 == "\u{FEFF}" }.prefix(16).uppercased()
        return ["--", "/*", "#", "SET ", "CREATE ", "DROP ", "INSERT ", "LOCK ", "USE "].contains { start.hasPrefix($0) }
    }

    /// Reads the dump's next line (its number is `number`).
    public mutating func feed(_ text: Substring, number: Int) throws(ImportProblem) {
        line = number
        if case .idle = state, !lexer.isInside, delimiter(text) { return }
        // The lexer is moved out while it reads, so that the parser can change `self` meanwhile.
        var lexer = SQLDumpLexer()
        swap(&lexer, &self.lexer)
        defer { swap(&lexer, &self.lexer) }
        lexer.line = number
        try lexer.feed(text) { token throws(ImportProblem) in
            try take(token)
            return keepsStrings
        }
    }

    /// Whether the strings now coming are kept: all but the values of a table this skips.
    private var keepsStrings: Bool {
        if case .values(_, false, _, _, _) = state { return false }
        return true
    }

    /// Ends the dump: a statement, string or comment still open means it was cut off.
    public func finish() throws(ImportProblem) {
        if let open = lexer.openKind {
            throw ImportProblem("cut-off dump", "\(open) on line \(lexer.openedOn) is never closed: the dump is cut off, or the comment unclosed")
        }
        if let block = delimited {
            throw ImportProblem("cut-off dump", "the DELIMITER \(block.delimiter) block of line \(block.line) is never ended by DELIMITER ;")
        }
        if case .idle = state { return }
        throw ImportProblem("cut-off dump", "the dump ends inside a statement: cut off?")
    }

    /// A client's `DELIMITER` line (mysqldump writes them around triggers and routines, never
    /// around a table's rows): the lines up to `DELIMITER ;` are passed over, and named. Returns
    /// whether the line was one, or inside such a block.
    private mutating func delimiter(_ text: Substring) -> Bool {
        // Most lines are rows: only one that starts with the word is split into words.
        guard delimited != nil || text.drop(while: { $0 == " " || $0 == "\t" }).prefix(9).uppercased() == "DELIMITER" else { return false }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        let isDelimiter = words.count == 2 && words[0].uppercased() == "DELIMITER"
        if let block = delimited {
            if isDelimiter && words[1] == ";" {
                delimited = nil
                note("a DELIMITER \(block.delimiter) block (triggers or routines), lines \(block.line)–\(line)")
            }
            return true
        }
        guard isDelimiter else { return false }
        if words[1] != ";" { delimited = (String(words[1].prefix(16)), line) }
        return true
    }

    /// Names a statement this passed over that could hold rows: at most ``maxNamedSkipped``.
    private mutating func note(_ statement: String) {
        if passedOver[statement] != nil || passedOver.count < Self.maxNamedSkipped { passedOver[statement, default: 0] += 1 }
    }

    private mutating func take(_ token: SQLDumpLexer.Token) throws(ImportProblem) {
        switch state {
        case .idle:
            switch token {
            case .word(let w) where w.uppercased() == "CREATE": state = .create(name: nil)
            case .word(let w) where ["INSERT", "REPLACE"].contains(w.uppercased()): state = .insert(name: nil, columns: nil, inList: false)
            case .punct(UInt8(ascii: ";")): break
            default: state = .skipping(depth: token == .punct(UInt8(ascii: "(")) ? 1 : 0)
            }
        case .skipping(let depth):
            state = switch token {
            case .punct(UInt8(ascii: "(")): .skipping(depth: depth + 1)
            case .punct(UInt8(ascii: ")")): .skipping(depth: max(0, depth - 1))
            case .punct(UInt8(ascii: ";")) where depth == 0: .idle
            default: state
            }
        case .create(let name): takeCreate(token, name: name)
        case .definitions(let table, let columns, let depth, let atStart):
            takeDefinition(token, table: table, columns: columns, depth: depth, atStart: atStart)
        case .insert(let name, let columns, let inList): try takeInsert(token, name: name, columns: columns, inList: inList)
        case .values(let table, let keep, let tuple, let item, let depth):
            try takeValue(token, table: table, keep: keep, tuple: tuple, item: item, depth: depth)
        }
    }

    /// `CREATE TABLE`, before its definitions: the table's name.
    private mutating func takeCreate(_ token: SQLDumpLexer.Token, name: String?) {
        switch token {
        case .name(let n): state = .create(name: n)
        case .word(let w) where !["TABLE", "TEMPORARY", "IF", "NOT", "EXISTS", "OR", "REPLACE"].contains(w.uppercased()):
            state = w.uppercased() == "DATABASE" || w.uppercased() == "SCHEMA" ? .skipping(depth: 0) : .create(name: Self.lastPart(w))
        case .punct(UInt8(ascii: "(")):
            guard let name else { state = .skipping(depth: 1); return }
            state = .definitions(table: name, columns: [], depth: 1, atStart: true)
        case .punct(UInt8(ascii: ";")): state = .idle
        default: break
        }
    }

    /// A `CREATE TABLE`'s definitions: the first word of each at the top depth is a column's
    /// name, unless it starts a key or a constraint.
    private mutating func takeDefinition(_ token: SQLDumpLexer.Token, table: String, columns: [String], depth: Int, atStart: Bool) {
        var (columns, depth, atStart) = (columns, depth, atStart)
        switch token {
        case .punct(UInt8(ascii: "(")): depth += 1; atStart = false
        case .punct(UInt8(ascii: ")")):
            depth -= 1
            if depth == 0 {
                // Only AWARE's tables' columns are kept: another table's are never read.
                if Self.awareTable(table) != nil { created[table] = columns }
                state = .skipping(depth: 0)
                return
            }
        case .punct(UInt8(ascii: ",")) where depth == 1: atStart = true
        case .name(let n) where atStart && depth == 1:
            if columns.count < Self.maxColumns, Self.awareTable(table) != nil { columns.append(n) }
            atStart = false
        case .word(let w) where atStart && depth == 1:
            if columns.count < Self.maxColumns, Self.awareTable(table) != nil, !Self.definitionWords.contains(w.uppercased()) {
                columns.append(w)
            }
            atStart = false
        default: atStart = false
        }
        state = .definitions(table: table, columns: columns, depth: depth, atStart: atStart)
    }

    /// `INSERT INTO`, before `VALUES`: the table's name and the list of columns, if any.
    private mutating func takeInsert(_ token: SQLDumpLexer.Token, name: String?, columns: [String]?, inList: Bool) throws(ImportProblem) {
        if inList {
            switch token {
            case .name(let n), .word(let n): state = .insert(name: name, columns: (columns ?? []) + [n], inList: true)
            case .punct(UInt8(ascii: ")")): state = .insert(name: name, columns: columns, inList: false)
            case .punct(UInt8(ascii: ",")): break
            default: throw ImportProblem("bad SQL", "\(Self.describe(token)) in an INSERT's list of columns")
            }
            return
        }
        switch token {
        case .name(let n): state = .insert(name: n, columns: nil, inList: false)
        case .word(let w) where ["VALUES", "VALUE"].contains(w.uppercased()):
            guard let name, !name.isEmpty else { throw ImportProblem("bad SQL", "an INSERT without a table's name") }
            try startValues(name, columns: columns)
        case .word(let w) where ["INTO", "IGNORE", "LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "."].contains(w.uppercased()): break
        case .word(let w) where name == nil || w.hasPrefix("."): state = .insert(name: Self.lastPart(w), columns: nil, inList: false)
        case .word(let w): try unread("INSERT … \(InputBounds.printable(w.uppercased(), limit: 12))", into: name)
        case .punct(UInt8(ascii: "(")): state = .insert(name: name, columns: [], inList: true)
        case .punct(UInt8(ascii: ";")): try unread("an INSERT without VALUES", into: name)
        default: break
        }
    }

    /// An `INSERT` in a form this does not read (`… SET`, `… SELECT`, `… TABLE`, none of VALUES):
    /// refused for an AWARE table, whose rows it may hold; named and passed over for another.
    private mutating func unread(_ form: String, into name: String?) throws(ImportProblem) {
        let table = InputBounds.printable(name ?? "", limit: 64)
        if let name, Self.awareTable(name) != nil {
            throw ImportProblem("bad SQL", "\(form) into \(table): this reads a table's rows from INSERT … VALUES only")
        }
        note("\(form) into \(table.isEmpty ? "a table" : table)")
        state = .skipping(depth: 0)
    }

    /// The tuples of an `INSERT`: each item's tokens, a row at each tuple's end.
    private mutating func takeValue(_ token: SQLDumpLexer.Token, table: String, keep: Bool, tuple: [String?]?,
                                    item: [SQLDumpLexer.Token], depth: Int) throws(ImportProblem) {
        var (tuple, item, depth) = (tuple, item, depth)
        switch token {
        case .punct(UInt8(ascii: "(")) where tuple == nil:
            tuple = []
            tupleLine = line
        case .punct(UInt8(ascii: "(")): depth += 1; item.append(token)
        case .punct(UInt8(ascii: ")")) where depth > 0: depth -= 1; item.append(token)
        case .punct(UInt8(ascii: ",")) where tuple != nil && depth == 0:
            tuple!.append(try value(item, keep: keep))
            item = []
        case .punct(UInt8(ascii: ")")) where tuple != nil:
            tuple!.append(try value(item, keep: keep))
            try add(tuple!, to: table, keep: keep)
            tuple = nil
            item = []
        case .punct(UInt8(ascii: ",")): break
        case .punct(UInt8(ascii: ";")) where tuple == nil:
            state = .idle
            return
        default:
            guard tuple != nil else { throw ImportProblem("bad SQL", "\(Self.describe(token)) between the rows of an INSERT") }
            if keep { item.append(token) }
        }
        state = .values(table: table, keep: keep, tuple: tuple, item: item, depth: depth)
    }


    private mutating func startValues(_ name: String, columns: [String]?) throws(ImportProblem) {
        let names = columns ?? created[name]
        var keep = false
        if let table = Self.awareTable(name) {
            if let earlier = spelled[table], earlier != name {
                throw ImportProblem("bad SQL", "rows of two tables read as AWARE's \(table.rawValue): \(InputBounds.printable(earlier, limit: 64)) "
                                    + "and \(InputBounds.printable(name, limit: 64)) (a server that tells names by case holds both)")
            }
            spelled[table] = name
            guard let names else {
                throw ImportProblem("no columns", "INSERT INTO \(name) names no columns, and no CREATE TABLE \(name) comes before it")
            }
            guard AwareReader.table(columns: Set(names)) == table else {
                throw ImportProblem("bad columns", "the columns of \(name) are not those of AWARE's table: \(names.joined(separator: ","))")
            }
            if let earlier = tables[table]?.columns, earlier != names {
                throw ImportProblem("bad columns", "the rows of \(name) come with two column lists: \(earlier.joined(separator: ",")) "
                                    + "and \(names.joined(separator: ","))")
            }
            if tables[table] == nil { tables[table] = TableRows(columns: names) }
            keep = true
        }
        state = .values(table: name, keep: keep, tuple: nil, item: [], depth: 0)
    }

    private mutating func add(_ tuple: [String?], to name: String, keep: Bool) throws(ImportProblem) {
        guard keep, let table = Self.awareTable(name) else {
            if skipped[name] != nil || skipped.count < Self.maxNamedSkipped { skipped[name, default: 0] += 1 } else { skippedUnnamed += 1 }
            return
        }
        guard kept < Self.maxRows else { throw ImportProblem("too many rows", "more than \(Self.maxRows) rows of AWARE's tables") }
        guard tuple.count == tables[table]!.columns.count else {
            throw ImportProblem("bad row", "a row of \(name) with \(tuple.count) values for \(tables[table]!.columns.count) columns")
        }
        tables[table]!.rows.append(Row(line: tupleLine, fields: tuple))
        kept += 1
    }
}
