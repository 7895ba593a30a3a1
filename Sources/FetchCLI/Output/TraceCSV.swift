import FetchCore
import FetchStorage

/// Writes `replay --trace`: one row per fetch, per refused request and per push. A push row has
/// `push-alert`, `push-silent` (delivered), `push-held` or `push-late` as its result, and for a
/// late one the delay in seconds as its duration.
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
        let duration = ResultText.fixed(Double(r.durationMs) / 1000, 3)
        let energy = ResultText.fixed(Double(r.energyMicroJ) / 1_000_000, 6)
        let names = "\(CSVField.text(users[r.user])),\(CSVField.text(apps[r.app]))"
        file.write("\(names),\(start),\(duration),\(r.result?.rawValue ?? ""),\(r.network.logName),\(energy),\(r.bytes),\(r.refusal?.traceName ?? "")\n")
    }

    func recordPush(user: Int32, app: Int32, time: Int64, offsetMinutes: Int16, silent: Bool, fate: PushFate, receivedAt: Int64) {
        let at = LocalTime.isoText(time, offsetMinutes: Int(offsetMinutes))
        let result: String
        switch fate {
        case .delivered: result = silent ? "push-silent" : "push-alert"
        case .held: result = "push-held"
        case .deliveredLate: result = "push-late"
        }
        let delay = ResultText.fixed(Double(time - receivedAt) / 1000, 3)
        file.write("\(CSVField.text(users[user])),\(CSVField.text(apps[app])),\(at),\(delay),\(result),,0.000000,0,\n")
    }
}
