import FetchCore
import FetchStorage
import Foundation
import GRDB
import Synchronization

/// The SQLite store of usage events (GRDB, WAL).
///
/// Events are keyed by (user, time, kind, app, value, occurrence) in a WITHOUT ROWID table, so
/// the same row ingested twice is stored once, and one user's events are a range of the key in
/// time order, with no index of their own. `occurrence` tells apart identical rows of one log
/// at the same instant.
public final class SQLiteStore: ServiceStore {
    public let pool: DatabasePool
    public let path: String
    /// One service process owns a SQLite store: it writes through this driver only, so its
    /// memory stays current without a version read per request.
    public var isShared: Bool { false }
    /// The names the service's writer has committed (``NameCache``); read and changed only inside
    /// the pool's writes, so the lock is never contended.
    let names = Mutex(NameCache())
    /// The claim to write the file, for a store opened as its one writer.
    let writerLock: WriterLock?
    /// The device and inode of the file opened: a service that finds another file at its path,
    /// or none, refuses writes rather than write into a file nobody will open again.
    let opened: FileIdentity?

    /// Opens (or makes) the store at `path`. `writer` claims it for this process alone
    /// (``WriterLock``): the service and `ingest` do; readers do not. `existing` refuses a path
    /// where no file is: a reader's typo must not make an empty store and report on it.
    public init(path: String, writer: Bool = false, existing: Bool = false) throws {
        self.path = path
        if existing && !FileManager.default.fileExists(atPath: path) {
            let shown = InputBounds.printable(path)
            throw InputError("the store '\(shown)' does not exist (a store is made by 'fetchsched ingest' or 'fetchsched serve')")
        }
        writerLock = writer ? try WriterLock(storePath: path) : nil
        do {
            var config = Configuration()
            config.prepareDatabase { db in try db.execute(sql: Self.connectionSetup) }
            // Another process writing the same file (an ingest while the service runs) makes a
            // writer wait its turn rather than fail at once.
            config.busyMode = .timeout(10)
            pool = try DatabasePool(path: path, configuration: config)
            // GRDB sets the writer to synchronous NORMAL in WAL mode, which keeps every commit
            // through a crash of the process but may lose the last ones to a power cut or a crash
            // of the system. A commit acknowledged to a client must survive both: FULL syncs the
            // WAL at each commit (the service commits batches in groups, one sync for many).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try Self.migrator.migrate(pool)
        } catch {
            throw InputError("cannot open the store '\(path)': \(error)")
        }
        opened = FileIdentity(path: path)
    }

    /// The page cache of each connection, in KiB: ingest appends to a wide key, and the default
    /// 2 MB cache spills (measured: Benchmarks/ingest-vs-sqlite3.sh).
    static let cacheKiB = 65536

    /// Run on every connection as it opens, and again by a bulk ingest that changed them. Temporary
    /// storage in memory keeps the journal of each service batch's savepoint off the disk.
    static let connectionSetup = "PRAGMA cache_size = -\(cacheKiB); PRAGMA temp_store = MEMORY"

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE apps (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE events (
                    ts INTEGER NOT NULL,          -- milliseconds since the Unix epoch, UTC
                    user INTEGER NOT NULL REFERENCES users(id),
                    kind INTEGER NOT NULL,        -- FetchCore.EventKind raw value
                    app INTEGER NOT NULL,         -- apps.id, 0 for device events
                    value INTEGER NOT NULL,       -- battery level, network, on/off, push kind
                    occurrence INTEGER NOT NULL,  -- nth identical row at this instant
                    utcOffset INTEGER NOT NULL,   -- the user's UTC offset, minutes
                    unixForm INTEGER NOT NULL,    -- 1 when the log gave Unix seconds
                    PRIMARY KEY (ts, user, kind, app, value, occurrence)
                ) WITHOUT ROWID;
                """)
        }
        registerModels(&m)
        registerService(&m)
        m.registerMigration("v4-user-index") { db in
            // One user's events by index, not by a scan of every user's (v7 keys them by user
            // instead, and the index goes); which apps each user has used, so that a user's
            // session reads only its own app names and a deletion removes the names no one else uses.
            try db.execute(sql: """
                CREATE INDEX events_user ON events (user);
                CREATE TABLE user_apps (
                    user INTEGER NOT NULL,
                    app INTEGER NOT NULL,
                    PRIMARY KEY (user, app)
                ) WITHOUT ROWID;
                CREATE INDEX user_apps_app ON user_apps (app);
                INSERT OR IGNORE INTO user_apps SELECT DISTINCT user, app FROM events WHERE app != 0;
                """)
        }
        registerVersions(&m)
        registerEventIDsByUser(&m)
        m.registerMigration("v7-events-by-user") { db in
            // Keyed by user first: a user's events are a range of the key (history, deletion, a
            // service batch), and the per-user index goes, with the pages it cost every write.
            // The columns are v1's, written out again: a migration's text is a record of what ran,
            // so two migrations never share a constant that a later edit could change under both.
            try db.execute(sql: """
                CREATE TABLE events_by_user (
                    ts INTEGER NOT NULL,          -- milliseconds since the Unix epoch, UTC
                    user INTEGER NOT NULL REFERENCES users(id),
                    kind INTEGER NOT NULL,        -- FetchCore.EventKind raw value
                    app INTEGER NOT NULL,         -- apps.id, 0 for device events
                    value INTEGER NOT NULL,       -- battery level, network, on/off, push kind
                    occurrence INTEGER NOT NULL,  -- nth identical row at this instant
                    utcOffset INTEGER NOT NULL,   -- the user's UTC offset, minutes
                    unixForm INTEGER NOT NULL,    -- 1 when the log gave Unix seconds
                    PRIMARY KEY (user, ts, kind, app, value, occurrence)
                ) WITHOUT ROWID;
                INSERT INTO events_by_user SELECT ts, user, kind, app, value, occurrence, utcOffset, unixForm FROM events
                    ORDER BY user, ts, kind, app, value, occurrence;
                DROP TABLE events;
                ALTER TABLE events_by_user RENAME TO events;
                """)
        }
        return m
    }

    /// How many events, users and apps the store holds.
    public func counts() throws -> (events: Int, users: Int, apps: Int) {
        try pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM apps") ?? 0)
        }
    }
}
