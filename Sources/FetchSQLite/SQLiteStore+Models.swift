import FetchCore
import FetchStorage
import Foundation
import GRDB

extension SQLiteStore {
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
        try saveModels([(user, model)], apps: apps)
    }

    /// Replaces the stored models of these users, in one transaction.
    public func saveModels(_ models: [(user: String, model: UsageModel)], apps: NameTable) throws {
        try pool.write { db in try Self.storeModels(models, apps: apps, db) }
    }

    static func storeModels(_ models: [(user: String, model: UsageModel)], apps: NameTable, _ db: Database) throws {
        let delete = try db.cachedStatement(sql: "DELETE FROM models WHERE user = ?")
        let insert = try db.cachedStatement(sql: "INSERT INTO models (user, app, data) VALUES (?, ?, ?)")
        for (user, model) in models {
            let records = model.records { apps[$0] }
            try delete.execute(arguments: [user])
            try insert.execute(arguments: [user, "", Data(records.user)])
            for (name, bytes) in records.apps { try insert.execute(arguments: [user, name, Data(bytes)]) }
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

    /// Learns the models of these users from all their stored events and stores them, each
    /// user's read off its own range of the events' key. Returns how many were learned.
    @discardableResult
    public func learnModels(users: [String]) throws -> Int {
        try pool.write { db in try Self.learnModels(users: users, db) }
    }

    static func learnModels(users: [String], _ db: Database) throws -> Int {
        var learned = 0
        for user in Set(users).sorted() {
            var source = try StoreEventSource(db: db, user: user)
            var model = UsageModel(), observed = false
            while let e = try source.next() {
                model.observe(e)
                observed = true
            }
            guard observed else { continue }
            try storeModels([(user, model)], apps: source.apps, db)
            learned += 1
        }
        return learned
    }
}
