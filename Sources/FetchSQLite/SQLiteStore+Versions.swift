import FetchCore
import FetchStorage
import GRDB

/// Per-user versions (``UserVersion``) in the SQLite store: one counter for the whole store,
/// and each user's last value of it.
extension SQLiteStore {
    static func registerVersions(_ m: inout DatabaseMigrator) {
        m.registerMigration("v5-versions") { db in
            try db.execute(sql: """
                CREATE TABLE version_counter (n INTEGER NOT NULL);
                INSERT INTO version_counter (n) VALUES (0);
                CREATE TABLE user_versions (
                    user TEXT NOT NULL PRIMARY KEY,  -- stored user name
                    version INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }

    /// Moves `user`'s version to the next value of the store's counter; call inside the write's
    /// transaction.
    static func bumpVersion(_ user: String, _ db: Database) throws -> VersionStep {
        let before = try storedVersion(user: user, db)
        try db.cachedStatement(sql: "UPDATE version_counter SET n = n + 1").execute()
        let after = try Int64.fetchOne(db.cachedStatement(sql: "SELECT n FROM version_counter")) ?? 0
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO user_versions (user, version) VALUES (?, ?)")
            .execute(arguments: [user, after])
        return VersionStep(before: before, after: after)
    }

    /// `user`'s version: 0 when no versioned write has touched the user.
    static func storedVersion(user: String, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT version FROM user_versions WHERE user = ?"), arguments: [user]) ?? 0
    }
}
