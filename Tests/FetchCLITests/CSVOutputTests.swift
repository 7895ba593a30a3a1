import FetchCore
import Foundation
import Testing

/// `--format csv`: the JSON report's figures, flattened into stable columns.
struct CSVOutputTests {
    /// RFC 4180 fields: quoted fields may hold commas, doubled quotes and line breaks.
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\r\n" || c == "\n" { row.append(field); rows.append(row); row = []; field = "" }
            else { field.append(c) }
        }
        return rows
    }

    /// The JSON object's scalars under `_`-joined names, as the CSV columns are named.
    static func flatten(_ object: [String: Any], prefix: String = "") -> [String: Any] {
        var out: [String: Any] = [:]
        for (key, value) in object {
            let name = prefix.isEmpty ? key : prefix + "_" + key
            if let nested = value as? [String: Any] { out.merge(flatten(nested, prefix: name)) { a, _ in a } }
            else if !(value is [Any]) { out[name] = value }
        }
        return out
    }

    static func same(_ cell: String, _ value: Any?) -> Bool {
        switch value {
        case nil, is NSNull: cell.isEmpty
        case let s as String: cell == s
        case let n as NSNumber: Double(cell) == n.doubleValue
        default: false
        }
    }

    @Test(arguments: ["policy", "user", "day"])
    func everyCSVCellIsTheJSONReportsFigure(per: String) async throws {
        let args = ["bench", CommandTests.sample, "--policies", "none,fixed:30m,adaptive", "--seed", "3"]
        let csv = try await Fetchsched.run(args + ["--format", "csv", "--per", per])
        let json = try await Fetchsched.run(args + ["--format", "json"])
        #expect(csv.status == 0 && json.status == 0, "\(csv.err)")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        let objects: [[String: Any]] = switch per {
        case "user": reports.flatMap { r in (r["perUser"] as! [[String: Any]]).map { $0.merging(["policy": r["policy"]!]) { a, _ in a } } }
        case "day": reports.flatMap { r in (r["perDay"] as! [[String: Any]]).map { $0.merging(["policy": r["policy"]!]) { a, _ in a } } }
        default: reports
        }
        let rows = Self.parse(csv.out)
        let header = try #require(rows.first)
        #expect(header.first == "policy" && Set(header).count == header.count)
        #expect(rows.count == objects.count + 1)
        for (row, object) in zip(rows.dropFirst(), objects) {
            let flat = Self.flatten(object)
            #expect(Set(header) == Set(flat.keys), "columns and JSON fields differ")
            for (name, cell) in zip(header, row) {
                #expect(Self.same(cell, flat[name]), "\(name): '\(cell)' against \(String(describing: flat[name]))")
            }
        }
    }

    @Test func columnsAreTheSameWhateverThePoliciesDo() async throws {
        let quiet = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "none", "--format", "csv"])
        let busy = try await Fetchsched.run(["bench", CommandTests.sample, "--policies", "fixed:15m", "--format", "csv"])
        #expect(Self.parse(quiet.out).first == Self.parse(busy.out).first)
    }

    @Test func aNameWithACommaOrAQuoteIsQuotedAndReadsBack() async throws {
        let dir = Fetchsched.temp()
        let log = dir + "/log.jsonl"
        let name = #"ann, "the" tester"#
        let rows = ["2025-01-06T08:00:00+01:00", "2025-01-06T09:00:00+01:00"].map { t in
            #"{"timestamp":"\#(t)","user":"ann, \"the\" tester","app":"news","event":"open","value":""}"#
        }
        #expect(FileManager.default.createFile(atPath: log, contents: Data((rows.joined(separator: "\n") + "\n").utf8)))
        let r = try await Fetchsched.run(["replay", log, "--format", "csv", "--per", "user"])
        #expect(r.status == 0, "\(r.err)")
        let parsed = Self.parse(r.out)
        #expect(parsed.count == 2 && parsed[1][1] == name)
        #expect(r.out.hasSuffix("\r\n"))
    }

    @Test func perWithoutCSVIsRefused() async throws {
        let r = try await Fetchsched.run(["replay", CommandTests.sample, "--per", "user"])
        #expect(r.status != 0 && r.err.contains("--per user needs --format csv"))
    }
}
