import FetchCore
import FetchImport

extension ImportCommand {
    /// Where a table's rows come from: a CSV file of one table, or one table of a dump.
    private enum AwareSource {
        case csv(path: String)
        case dump(path: String, table: AwareReader.Table, rows: AwareDump.TableRows)
    }

    /// AWARE's tables in a fixed order whatever the order given: timezone first, so every other
    /// row finds its device's offset; then foreground, screen, battery, network, so that rows of
    /// one instant from different tables meet in the same order every time (an app's move
    /// before the screen going off in the same millisecond: the open is kept).
    private static let rank: [AwareReader.Table?] = [.timezone, .foreground, .notifications, .screen, .battery, .network, nil]

    /// Reads AWARE's CSV files and MySQL dumps, table by table in ``rank`` order (in the order
    /// given within a table). Returns what the summary says beside the counts: the unit each
    /// source's times were read in, and the tables a dump held that this does not read.
    func readAware(offset: UTCOffsetRule?, into log: inout ImportedLog, skipped: inout [String: Int]) throws -> [String] {
        var reader = try wrap { () throws(ImportProblem) in try AwareReader(user: user, offset: offset, zone: Self.zone) }
        var sources: [(rank: Int, order: Int, source: AwareSource)] = []
        var notes: [String] = []
        for (i, path) in files.enumerated() {
            let first = try Self.firstLine(of: path)
            guard let first, AwareDump.isDump(firstLine: first) else {
                sources.append((Self.rank.firstIndex(of: first.flatMap(AwareReader.table(header:)))!, i, .csv(path: path)))
                continue
            }
            let dump = try Self.readDump(path)
            for (table, rows) in dump.tables { sources.append((Self.rank.firstIndex(of: table)!, i, .dump(path: path, table: table, rows: rows))) }
            let names = AwareReader.Table.allCases.map(\.rawValue).joined(separator: ", ")
            if dump.tables.isEmpty { notes.append("\(path): no rows of \(names)") }
            if !dump.skipped.isEmpty {
                notes.append("\(path): tables left out: " + Self.leftOut(dump.skipped, unnamedRows: dump.skippedUnnamed))
            }
            if !dump.passedOver.isEmpty {
                let listed = dump.passedOver.sorted { $0.key < $1.key }.prefix(Self.listedTables)
                notes.append("\(path): statements passed over: " + listed.map { "\($0.key) (\($0.value))" }.joined(separator: ", "))
            }
        }
        var units: [(source: String, unit: AwareReader.TimeUnit)] = []
        for (_, _, source) in sources.sorted(by: { ($0.rank, $0.order) < ($1.rank, $1.order) }) {
            log.beginSection()
            switch source {
            case .csv(let path):
                var header = true
                try Self.lines(of: path, skipping: skipInvalid, { line in
                    if header { header = false; try reader.begin(header: line) } else { try reader.read(line, into: &log) }
                }) { problem, number in try stopOrCount(problem, at: "\(path):\(number)", skipped: &skipped) }
                if let unit = reader.unit { units.append((path, unit)) }
            case .dump(let path, let table, let rows):
                do { try reader.begin(columns: rows.columns) } catch {
                    throw CLIError("\(path):\(rows.rows.first?.line ?? 0): \(error.message) (nothing was written)")
                }
                for row in rows.rows {
                    do { try reader.read(fields: row.fields.map { $0 ?? "" }, into: &log) } catch {
                        try stopOrCount(error, at: "\(path):\(row.line)", skipped: &skipped)
                    }
                }
                if let unit = reader.unit { units.append(("\(path) (\(table.rawValue))", unit)) }
            }
        }
        reader.finish(into: &log)
        let stated = [AwareReader.TimeUnit.milliseconds, .seconds].compactMap { unit -> String? in
            let sources = units.filter { $0.unit == unit }.map(\.source)
            return sources.isEmpty ? nil : "times in Unix \(unit.rawValue): " + sources.joined(separator: ", ")
        }
        return stated + notes
    }

    /// The AWARE tables of a dump, read whole; a line it cannot read stops the import at it, even
    /// with `--skip-invalid` (a statement read past a skipped line would be read wrong).
    private static func readDump(_ path: String) throws -> AwareDump {
        var dump = AwareDump()
        var last = 0
        try lines(of: path, skipping: false, { line in
            last += 1
            try dump.feed(line, number: last)
        }) { problem, number in
            throw CLIError("\(path):\(number): \(problem.message) (nothing was written)")
        }
        do { try dump.finish() } catch { throw CLIError("\(path):\(last): \(error.message) (nothing was written)") }
        return dump
    }

    /// The tables a dump's import left out, by name: at most ``listedTables`` of them, then how
    /// many more and their rows.
    static func leftOut(_ skipped: [String: Int], unnamedRows: Int) -> String {
        let sorted = skipped.sorted { $0.key < $1.key }
        var text = sorted.prefix(listedTables).map { "\(InputBounds.printable($0.key)) (\($0.value) rows)" }.joined(separator: ", ")
        let more = sorted.dropFirst(listedTables)
        if !more.isEmpty || unnamedRows > 0 {
            let rows = more.reduce(0) { $0 + $1.value } + unnamedRows
            text += ", and \(unnamedRows > 0 ? "at least \(more.count + 1)" : "\(more.count)") other tables (\(rows) rows)"
        }
        return text
    }

    /// Tables named in the note of a dump's import.
    static let listedTables = 50
}
