@testable import FetchCore
@testable import FetchResults
import FetchTesting
import Foundation
import Testing

/// JSON and CSV reports written a row at a time are the texts written whole, and no piece holds
/// more than one user's row.
struct ResultTextStreamTests {
    /// Reports held deeper than an array, as a frontier's output holds them.
    struct Nested: Encodable {
        var frontiers: [Int]
        var policies: [ReplayResult]
    }

    /// A value with a `perUser` of its own beside the reports': its rows' places cannot be told apart.
    struct Ambiguous: Encodable {
        var perUser: [Int]
        var policies: [ReplayResult]
    }

    static func reports(seed: UInt64, users: Int) -> [ReplayResult] {
        let log = RandomLog(seed: seed, users: users, days: 3)
        let scenario = RandomLog.scenario(seed: seed, apps: 5)
        let policies: [any FetchPolicy] = [AdaptivePolicy(), FixedPolicy(period: 15 * Millis.minute), NonePolicy()]
        return policies.map { log.replay($0, scenario: scenario, seed: seed) }
    }

    static func pieces(_ body: ((String) throws -> Void) throws -> Void) rethrows -> [String] {
        var pieces: [String] = []
        try body { pieces.append($0) }
        return pieces
    }

    static func rowsIn(_ piece: String) -> Int { piece.components(separatedBy: "\"user\" :").count - 1 }

    @Test(arguments: [(UInt64(1), 7), (2, 1), (3, 0), (4, 12)])
    func jsonWrittenARowAtATimeIsTheWholeText(seed: UInt64, users: Int) throws {
        let reports = Self.reports(seed: seed, users: users)
        let nested = Nested(frontiers: [1, 2], policies: reports)
        let texts: [(whole: String, pieces: [String], rows: Int)] = [
            (try ResultText.json(reports[0]), try Self.pieces { try ResultText.writeJSON(reports[0], reports: [reports[0]], to: $0) }, users),
            (try ResultText.json(reports), try Self.pieces { try ResultText.writeJSON(reports, reports: reports, to: $0) }, 3 * users),
            (try ResultText.json(nested), try Self.pieces { try ResultText.writeJSON(nested, reports: reports, to: $0) }, 3 * users),
        ]
        for (whole, pieces, rows) in texts {
            #expect(pieces.joined() == whole + "\n")
            #expect(pieces.allSatisfy { Self.rowsIn($0) <= 1 })
            #expect(pieces.filter { Self.rowsIn($0) == 1 }.count == rows)
        }
    }

    @Test func aValueWhoseRowsCannotBeToldApartIsWrittenWhole() throws {
        let reports = Self.reports(seed: 5, users: 3)
        let value = Ambiguous(perUser: [], policies: reports)
        let pieces = try Self.pieces { try ResultText.writeJSON(value, reports: reports, to: $0) }
        #expect(pieces == [try ResultText.json(value) + "\n"])
    }

    @Test(arguments: CSVRows.allCases)
    func csvWrittenALineAtATimeIsTheWholeText(per rows: CSVRows) throws {
        for (seed, users) in [(UInt64(1), 7), (3, 0), (6, 4)] {
            let reports = Self.reports(seed: seed, users: users)
            let pieces = try Self.pieces { try ReplayResult.writeCSV(reports, per: rows, to: $0) }
            #expect(pieces.joined() == (try ReplayResult.csv(reports, per: rows)))
            #expect(pieces.allSatisfy { $0.hasSuffix("\r\n") && $0.dropLast(2).contains("\r\n") == false })
        }
    }
}
