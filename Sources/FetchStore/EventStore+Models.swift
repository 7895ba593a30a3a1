import FetchCore
import Foundation
import GRDB

extension EventStore {
    static func registerModels(_ m: inout DatabaseMigrator) {
        m.registerMigration("v2-models") { db in
            try db.execute(sql: """
                CREATE TABLE models (
                    user TEXT NOT NULL,
                    app TEXT NOT NULL,      -- '' for the user's own record
                    data BLOB NOT NULL,     -- FetchCore.UsageModel records
                    PRIMARY KEY (user, app)
                ) WITHOUT ROWID;
                """)
        }
    }

    /// Replaces the stored model of `user`.
    public func saveModel(_ model: UsageModel, user: String, apps: NameTable) throws {
        let records = model.records { apps[$0] }
        try pool.write { db in
            try db.execute(sql: "DELETE FROM models WHERE user = ?", arguments: [user])
            try db.execute(sql: "INSERT INTO models (user, app, data) VALUES (?, '', ?)", arguments: [user, Data(records.user)])
            for (name, bytes) in records.apps {
                try db.execute(sql: "INSERT INTO models (user, app, data) VALUES (?, ?, ?)", arguments: [user, name, Data(bytes)])
            }
        }
    }

    /// The stored model of `user`, its app names interned in `apps`; nil when there is none.
    public func loadModel(user: String, apps: NameTable) throws -> UsageModel? {
        let rows = try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT app, data FROM models WHERE user = ? ORDER BY app", arguments: [user])
        }
        guard let own = rows.first(where: { ($0[0] as String).isEmpty }) else { return nil }
        let appRows = rows.filter { !($0[0] as String).isEmpty }.map { (name: $0[0] as String, bytes: [UInt8]($0[1] as Data)) }
        do {
            return try UsageModel(user: [UInt8](own[1] as Data), apps: appRows, appID: { apps.id($0) })
        } catch {
            throw InputError("store '\(path)': the model of user '\(user)' cannot be read")
        }
    }

    /// Learns the models of these users from all their stored events and stores them.
    /// Returns how many were learned.
    @discardableResult
    public func learnModels(users: [String]) throws -> Int {
        for user in users {
            let (model, apps) = try withEvents(user: user) { source -> (UsageModel, NameTable) in
                var model = UsageModel()
                while let e = try source.next() { model.observe(e) }
                return (model, source.apps)
            }
            try saveModel(model, user: user, apps: apps)
        }
        return users.count
    }
}
