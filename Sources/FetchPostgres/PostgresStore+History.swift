import FetchCore
import FetchStorage
import PostgresNIO

/// Reading a user's history back, in one repeatable-read transaction (one snapshot).
extension PostgresStore {
    /// `user`'s history (``UserHistory``), with its version.
    public func history(user: String) async throws -> UserHistory {
        try await transaction(readOnly: true) { [self] conn in
            let apps = NameTable()
            var appIDs: [Int32: Int32] = [:]
            for try await (id, name) in try await conn.query("""
                SELECT a.id, a.name FROM user_apps u JOIN apps a ON a.id = u.app WHERE u.user_name = \(user) ORDER BY a.id
                """, logger: logger).decode((Int32, String).self) {
                appIDs[id] = apps.id(name)
            }
            let events = try await self.events(user: user, id: 0, appIDs: appIDs, conn)
            var reports: [FetchReport] = []
            for try await (app, start, offset, duration, bytes, network, result) in try await conn.query("""
                SELECT app, start, utc_offset, duration, bytes, network, result FROM fetch_results
                WHERE user_name = \(user) ORDER BY start, app
                """, logger: logger).decode((String, Int64, Int16, Int64, Int64, Int16, String).self) {
                reports.append(try StoredRow.fetchReport(app: app, start: start, offset: Int64(offset), duration: duration,
                                                         bytes: bytes, network: Int64(network), result: result, apps: apps, user: user))
            }
            var intervals: [String: FetchInterval] = [:]
            for try await (app, text) in try await conn.query("""
                SELECT app, fetch_interval FROM intervals WHERE user_name = \(user)
                """, logger: logger).decode((String, String).self) {
                if let i = FetchInterval(text: text) { intervals[app] = i }
            }
            var version: Int64 = 0
            for try await v in try await conn.query("SELECT version FROM user_versions WHERE user_name = \(user)",
                                                    logger: logger).decode(Int64.self) {
                version = v
            }
            return UserHistory(user: user, appNames: apps.names, events: events, reports: reports,
                               intervals: intervals, version: version)
        }
    }

    /// `user`'s events in time order (ties in the order of the primary key), as user `id`, with
    /// app ids mapped through `appIDs`.
    func events(user: String, id: Int32, appIDs: [Int32: Int32], _ conn: PostgresConnection) async throws -> [UsageEvent] {
        var events: [UsageEvent] = []
        for try await (ts, kind, app, value, offset, unix) in try await conn.query("""
            SELECT ts, kind, app, value, utc_offset, unix_form FROM events
            WHERE user_id = (SELECT id FROM user_versions WHERE user_name = \(user))
            ORDER BY ts, kind, app, value, occurrence
            """, logger: logger).decode((Int64, Int16, Int32, Int16, Int16, Bool).self) {
            events.append(try StoredRow.event(time: ts, user: id, app: app == 0 ? -1 : (appIDs[app] ?? -1), kind: Int64(kind),
                                              value: Int64(value), offset: Int64(offset), unixForm: unix, userName: user))
        }
        return events
    }
}
