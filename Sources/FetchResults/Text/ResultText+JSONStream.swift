#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FetchCore

extension ResultText {
    /// ``json(_:)``'s text of `value` and a newline, handed to `write` in pieces, a user's row at
    /// a time: the text less its rows, with each report's rows encoded one by one where they go.
    ///
    /// `reports` are the reports `value` holds, in the order it encodes them (a report alone, an
    /// array of them, or a frontier's policies). Memory then holds one row's text, not the whole:
    /// a report whose rows wait on disk (``UserRows``) is read back a row at a time. A value in
    /// which the rows' places cannot be told apart is written whole, as ``json(_:)`` gives it.
    public static func writeJSON<T: Encodable>(_ value: T, reports: [ReplayResult], to write: (String) throws -> Void) throws {
        let encoder = makeJSONEncoder()
        encoder.userInfo[ReplayResult.rowsLeftOut] = true
        let skeleton = Array(try encoder.encode(value))
        // An empty array opens with a line break and shows an empty line: `[\n\n    ]`. Nothing
        // else in the text can match, as a string's line breaks are escaped.
        let opening = Array("\"perUser\" : [\n".utf8)
        let places = occurrences(of: opening + [newline], in: skeleton)
        guard places.count == reports.count else {
            try write(try json(value) + "\n")
            return
        }
        let rowEncoder = makeJSONEncoder()
        var from = 0
        for (report, place) in zip(reports, places) {
            let end = place + opening.count
            try write(String(decoding: skeleton[from..<end], as: UTF8.self))
            var lineStart = place
            while lineStart > 0 && skeleton[lineStart - 1] != newline { lineStart -= 1 }
            // A row sits one level in from the key, its lines as it is encoded alone.
            let indent = [UInt8](repeating: UInt8(ascii: " "), count: place - lineStart + 2)
            var first = true
            for row in report.perUser {
                var piece: [UInt8] = first ? indent : Array(",\n".utf8) + indent
                first = false
                for byte in try rowEncoder.encode(RowText(row: row)) {
                    piece.append(byte)
                    if byte == newline { piece += indent }
                }
                try write(String(decoding: piece, as: UTF8.self))
            }
            // What follows is the empty array's second line break and its closing bracket.
            from = end
        }
        try write(String(decoding: skeleton[from...], as: UTF8.self) + "\n")
    }

    private static let newline = UInt8(ascii: "\n")

    /// Where `pattern` starts in `text`, each place after the end of the one before.
    private static func occurrences(of pattern: [UInt8], in text: [UInt8]) -> [Int] {
        var places: [Int] = []
        var i = 0
        while i + pattern.count <= text.count {
            if text[i] == pattern[0] && text[i..<(i + pattern.count)].elementsEqual(pattern) {
                places.append(i)
                i += pattern.count
            } else {
                i += 1
            }
        }
        return places
    }

    /// One user's row as ``ReplayResult`` encodes it in `perUser`.
    private struct RowText: Encodable {
        let row: ReplayResult.UserRow
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: ReplayResult.Key.self)
            try ReplayResult.encode(row, into: &c)
        }
    }
}
