import FetchCore
import HeapModule

/// Reads any number of log files as one stream, merged by time.
///
/// Each file must list each user's events in time order (files may overlap in time). A bad
/// row stops the read with a ``LogError`` naming file and line, unless `skipInvalid` is set:
/// then it is skipped and counted by reason in `skipped`.
public struct LogSource: UsageEventSource {
    public let users = NameTable()
    public let apps = NameTable()
    public let skipInvalid: Bool
    public private(set) var skipped: [RowProblemKind: Int] = [:]
    /// Rows read, skipped ones included.
    public private(set) var rows = 0
    private var files: [LogFileSource] = []
    /// The file when there is one: read without the merge (and without retaining it per row).
    private let onlyFile: LogFileSource?
    private var heads = Heap<Head>()
    private var lastTime: [Int64] = []
    private var primed = false

    private struct Head: Comparable {
        var event: UsageEvent
        var file: Int
        var line: Int

        static func < (a: Head, b: Head) -> Bool {
            a.event.time != b.event.time ? a.event.time < b.event.time : a.file < b.file
        }
    }

    public init(paths: [String], skipInvalid: Bool = false) throws(InputError) {
        self.skipInvalid = skipInvalid
        let decoder = RowDecoder(users: users, apps: apps)
        for p in paths { files.append(try LogFileSource(path: p, decoder: decoder, skipsLongLines: skipInvalid)) }
        onlyFile = files.count == 1 ? files[0] : nil
    }

    public mutating func next() throws -> UsageEvent? {
        if let f = onlyFile { return try next(only: f) }
        if !primed {
            primed = true
            for i in files.indices { try pull(i) }
        }
        while let head = heads.popMin() {
            try pull(head.file)
            if try inOrder(head.event, file: head.file, line: head.line) { return head.event }
        }
        return nil
    }

    /// One file needs no merge: its rows are taken as read, without the heap.
    private mutating func next(only f: LogFileSource) throws -> UsageEvent? {
        while true {
            let event: UsageEvent?
            do {
                event = try f.next()
            } catch {
                rows += 1
                try reject(error, file: 0, line: f.line)
                continue
            }
            guard let e = event else { return nil }
            rows += 1
            if try inOrder(e, file: 0, line: f.line) { return e }
        }
    }

    /// Whether `e` comes at or after its user's last event (else it is rejected).
    private mutating func inOrder(_ e: UsageEvent, file: Int, line: Int) throws -> Bool {
        let u = Int(e.user)
        if u >= lastTime.count { lastTime.append(contentsOf: repeatElement(Int64.min, count: u - lastTime.count + 1)) }
        if e.time.millis < lastTime[u] {
            let problem = RowProblem(.outOfOrder, "event at \(LocalTime.isoText(e.time.millis, offsetMinutes: Int(e.offsetMinutes))) for user '\(users[e.user])' comes before one already read (\(LocalTime.isoText(lastTime[u], offsetMinutes: Int(e.offsetMinutes)))): each file must be in time order per user")
            try reject(problem, file: file, line: line)
            return false
        }
        lastTime[u] = e.time.millis
        return true
    }

    /// Reads the next good event of file `i` into the heap.
    private mutating func pull(_ i: Int) throws {
        let f = files[i]
        while true {
            do {
                guard let e = try f.next() else { return }
                rows += 1
                heads.insert(Head(event: e, file: i, line: f.line))
                return
            } catch {
                rows += 1
                try reject(error, file: i, line: f.line)
            }
        }
    }

    private mutating func reject(_ problem: RowProblem, file: Int, line: Int) throws {
        guard skipInvalid else { throw LogError(file: files[file].path, line: line, problem: problem) }
        skipped[problem.kind, default: 0] += 1
    }

    /// The share of the files' bytes read so far.
    public var progress: Double? {
        let total = files.reduce(0) { $0 + $1.size }
        return total == 0 ? nil : Double(files.reduce(0) { $0 + $1.bytesRead }) / Double(total)
    }

    /// `badTimestamp 3, unknownEvent 1`, or nil when nothing was skipped.
    public var skippedSummary: String? {
        let parts = RowProblemKind.allCases.compactMap { k in skipped[k].map { "\(k.rawValue) \($0)" } }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
