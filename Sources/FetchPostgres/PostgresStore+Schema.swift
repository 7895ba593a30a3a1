import FetchStorage
import PostgresNIO

/// The schema, as numbered migrations applied in order and recorded in `schema_version`.
///
/// Distribution by user: every table of a user's data has the user first in its primary key:
/// `events` the user's integer id (`user_versions.id`, since migration 4), the others
/// (`user_apps`, `event_ids`, `intervals`, `fetch_results`, `models`, `user_versions`) the
/// name. Each can be distributed on that column (Citus: `create_distributed_table('events',
/// 'user_id')`, the named ones on `user_name`, colocated with each other). `apps` is a small
/// dictionary of app names, a reference table.
extension PostgresStore {
    /// Each migration's statements, in order; a migration's number is its place plus one.
    static let migrations: [[String]] = [
        [
            "CREATE SEQUENCE store_version",
            """
            CREATE TABLE apps (
                id serial PRIMARY KEY,
                name text NOT NULL UNIQUE)
            """,
            """
            CREATE TABLE events (
                user_name text NOT NULL,       -- stored user name (tenant-prefixed by the service)
                ts bigint NOT NULL,            -- milliseconds since the Unix epoch, UTC
                kind smallint NOT NULL,        -- FetchCore.EventKind raw value
                app integer NOT NULL,          -- apps.id, 0 for device events
                value smallint NOT NULL,       -- battery level, network, on/off, push kind
                occurrence integer NOT NULL,   -- nth identical row at this instant
                utc_offset smallint NOT NULL,  -- minutes
                unix_form boolean NOT NULL,    -- the log gave Unix seconds
                PRIMARY KEY (user_name, ts, kind, app, value, occurrence))
            """,
            """
            CREATE TABLE user_apps (
                user_name text NOT NULL,
                app integer NOT NULL REFERENCES apps (id),
                PRIMARY KEY (user_name, app))
            """,
            "CREATE INDEX user_apps_app ON user_apps (app)",
            """
            CREATE TABLE event_ids (
                tenant text NOT NULL,
                id text NOT NULL,
                user_name text NOT NULL,
                PRIMARY KEY (tenant, id))
            """,
            "CREATE INDEX event_ids_user ON event_ids (user_name)",
            """
            CREATE TABLE intervals (
                user_name text NOT NULL,
                app text NOT NULL,
                fetch_interval text NOT NULL,  -- never, minimum, or custom:<duration>
                PRIMARY KEY (user_name, app))
            """,
            """
            CREATE TABLE fetch_results (
                user_name text NOT NULL,
                app text NOT NULL,
                start bigint NOT NULL,
                utc_offset smallint NOT NULL,
                duration bigint NOT NULL,
                bytes bigint NOT NULL,
                network smallint NOT NULL,
                result text NOT NULL,
                PRIMARY KEY (user_name, app, start))
            """,
            """
            CREATE TABLE models (
                user_name text NOT NULL,
                app text NOT NULL,             -- '' for the user's own record
                data bytea NOT NULL,
                PRIMARY KEY (user_name, app))
            """,
            """
            CREATE TABLE user_versions (
                user_name text PRIMARY KEY,
                version bigint NOT NULL)
            """,
        ],
        [
            // Event ids are a user's own, as in the SQLite store (its v6 migration): keyed by
            // (user_name, id), with the user's data, and no index of their own. Stored names
            // carry the tenant, so ids unique per (tenant, id) are unique per (user_name, id).
            "ALTER TABLE event_ids DROP CONSTRAINT event_ids_pkey",
            "DROP INDEX event_ids_user",
            "ALTER TABLE event_ids DROP COLUMN tenant",
            "ALTER TABLE event_ids ADD PRIMARY KEY (user_name, id)",
        ],
        [
            // Every change of a user's version is told on a channel as it commits, whoever
            // writes it, so that service instances need not read the version per request
            // (VersionWatcher). The payload: the version (-1 for a deleted user), a tab, the user.
            """
            CREATE OR REPLACE FUNCTION notify_version() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    PERFORM pg_notify('fetchsched_versions', '-1' || chr(9) || OLD.user_name);
                ELSE
                    PERFORM pg_notify('fetchsched_versions', NEW.version::text || chr(9) || NEW.user_name);
                END IF;
                RETURN NULL;
            END
            $$
            """,
            "DROP TRIGGER IF EXISTS user_versions_notify ON user_versions",
            """
            CREATE TRIGGER user_versions_notify AFTER INSERT OR UPDATE OR DELETE ON user_versions
            FOR EACH ROW EXECUTE FUNCTION notify_version()
            """,
        ],
        [
            // Events keyed by the user's integer id, not the name: the key is the largest thing a
            // load builds, and an integer sorts and stores in less than a name. The id lives on
            // the user's version row, which every write about the user locks already. A user with
            // events and no version row (none should be) gets one first.
            """
            INSERT INTO user_versions (user_name, version) SELECT DISTINCT user_name, 0 FROM events ORDER BY 1
            ON CONFLICT DO NOTHING
            """,
            "ALTER TABLE user_versions ADD COLUMN id integer GENERATED BY DEFAULT AS IDENTITY CONSTRAINT user_versions_id_key UNIQUE",
            """
            CREATE TABLE events_by_id (
                ts bigint NOT NULL,            -- milliseconds since the Unix epoch, UTC
                user_id integer NOT NULL,      -- user_versions.id
                app integer NOT NULL,          -- apps.id, 0 for device events
                occurrence integer NOT NULL,   -- nth identical row at this instant
                kind smallint NOT NULL,        -- FetchCore.EventKind raw value
                value smallint NOT NULL,       -- battery level, network, on/off, push kind
                utc_offset smallint NOT NULL,  -- minutes
                unix_form boolean NOT NULL)    -- the log gave Unix seconds
            """,
            """
            INSERT INTO events_by_id (ts, user_id, app, occurrence, kind, value, utc_offset, unix_form)
            SELECT e.ts, v.id, e.app, e.occurrence, e.kind, e.value, e.utc_offset, e.unix_form
            FROM events e JOIN user_versions v USING (user_name)
            """,
            "DROP TABLE events",
            "ALTER TABLE events_by_id RENAME TO events",
            "ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (user_id, ts, kind, app, value, occurrence)",
        ],
        [
            // A service's group of batches written in one call (PostgresStore+AppendFunction.swift), so that
            // a group is one round trip and one statement's transaction instead of seven.
            appendGroupFunction,
        ],
    ]

    /// Applies the migrations the database has not had (through number `last`), in one
    /// transaction under an advisory lock; refuses a database migrated by a newer program.
    func migrate(upTo last: Int = migrations.count) async throws {
        try await transaction { [self] conn in
            // Any constant key: it only has to be the same in every instance.
            try await conn.query("SELECT pg_advisory_xact_lock(7346281905)", logger: logger)
            try await conn.query("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)", logger: logger)
            var current = 0
            for try await (v) in try await conn.query("SELECT coalesce(max(version), 0) FROM schema_version", logger: logger).decode(Int.self) {
                current = v
            }
            guard current <= Self.migrations.count else {
                throw InputError("the database's schema is version \(current), newer than this program's \(Self.migrations.count)")
            }
            for (i, statements) in Self.migrations.prefix(last).enumerated() where i + 1 > current {
                for sql in statements { try await conn.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                try await conn.query("INSERT INTO schema_version (version) VALUES (\(i + 1))", logger: logger)
            }
        }
    }
}
