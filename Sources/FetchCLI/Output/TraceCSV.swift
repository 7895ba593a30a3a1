import FetchCore

/// Writes `replay --trace`: one row per fetch and per refused request.
final class TraceCSV: TraceSink {
    static let header = "user,app,start,durationSeconds,result,network,energyJoules,bytes,refusedBy"
    let file: AtomicFile
    let users: NameTable
    let apps: NameTable

    init(file: AtomicFile, users: NameTable, apps: NameTable) {
        self.file = file
        self.users = users
        self.apps = apps
        file.write(Self.header + "\n")
    }

    func record(_ r: TraceRow) {
        let start = r.unixForm ? LocalTime.unixText(r.start) : LocalTime.isoText(r.start, offsetMinutes: Int(r.offsetMinutes))
        let duration = ReportText.fixed(Double(r.durationMs) / 1000, 3)
        let energy = ReportText.fixed(Double(r.energyMicroJ) / 1_000_000, 6)
        file.write("\(users[r.user]),\(apps[r.app]),\(start),\(duration),\(r.result?.rawValue ?? ""),\(r.network.logName),\(energy),\(r.bytes),\(r.refusal?.traceName ?? "")\n")
    }
}
