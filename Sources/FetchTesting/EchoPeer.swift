import FetchCore
import FetchExec
import Foundation

/// The other end of an `exec:` policy, in process: it parses every line it is sent as JSON and
/// answers each decision point by asking for every app it was shown, and to be woken again a
/// minute later, as a greedy policy would. Lines that are not JSON objects are kept in
/// `malformed`. Guarded by its lock, hence `@unchecked Sendable`.
public final class EchoPeer: PolicyPeer, @unchecked Sendable {
    private let lock = NSLock()
    public private(set) var lines: [[String: Any]] = []
    public private(set) var malformed: [String] = []
    public private(set) var failure: String?

    public init() {}

    private func parse(_ line: String) -> [String: Any]? {
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        if let object { lines.append(object) } else { malformed.append(line) }
        return object
    }

    public func tell(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        _ = parse(line)
    }

    public func ask(_ line: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        guard let m = parse(line), let t = m["t"] as? Int64, let apps = m["apps"] as? [[String: Any]] else { return "{}" }
        let names = apps.compactMap { $0["app"] as? String }
        let answer: [String: Any] = ["fetch": names, "wakeAt": t + 60_000]
        return String(decoding: try! JSONSerialization.data(withJSONObject: answer), as: UTF8.self)
    }

    public func fail(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        if failure == nil { failure = message }
    }
}
