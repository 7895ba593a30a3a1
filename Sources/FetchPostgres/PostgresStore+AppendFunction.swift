import FetchStorage
import PostgresNIO

/// A service's group of batches written by one call of a function in the database, which is
/// one round trip and its own transaction: the group's seven statements (begin, lock, claim,
/// events, apps, versions, commit) were seven round trips, each a hop through the connection's
/// event loop, and those hops were most of what the server spent on a request.
extension PostgresStore {
    /// The function, made by migration 5 (``migrations``).
    ///
    /// It takes the group's events as columns, in order, each with its batch's number, and does
    /// what a group batch by batch would: it locks the users' version rows in name order (a user
    /// without one gets it at version 0 first, then is locked: ``lockVersions(_:_:_:)``), claims
    /// the event ids (the first item with a claimed id is the one stored), adds the apps named for
    /// the first time (in the order first named) and holds the group's apps against deletion (one
    /// deleted meanwhile is a foreign key violation: the group is tried again), stores the events,
    /// each numbered among the user's alike events, notes the users' apps, and moves each user's
    /// version a step for each batch that stored events of theirs, chained, the steps taking the
    /// sequence's values in batch order, then user order.
    ///
    /// It returns the places (from 1) of the events stored, and each step's batch, user, and
    /// versions before and after.
    static let appendGroupFunction = """
        CREATE OR REPLACE FUNCTION fetchsched_append_group(
            p_users text[], p_ids text[], p_batches int4[], p_ts int8[], p_kinds int2[], p_apps text[],
            p_values int2[], p_offsets int2[], p_unix bool[])
        RETURNS TABLE (o_added int4[], o_batches int4[], o_users text[], o_befores int8[], o_afters int8[])
        LANGUAGE plpgsql AS $$
        DECLARE
            locking text[] := ARRAY(SELECT DISTINCT u FROM unnest(p_users) AS u ORDER BY u);
            missing text[];
            named text[];
        BEGIN
            FOR attempt IN 1..8 LOOP
                PERFORM 1 FROM user_versions WHERE user_name = ANY(locking) ORDER BY user_name FOR NO KEY UPDATE;
                missing := ARRAY(SELECT u FROM unnest(locking) AS u
                                 WHERE NOT EXISTS (SELECT 1 FROM user_versions v WHERE v.user_name = u) ORDER BY u);
                EXIT WHEN cardinality(missing) = 0;
                IF attempt = 8 THEN
                    RAISE EXCEPTION 'the version row of user ''%'' was deleted each time it was locked', missing[1];
                END IF;
                INSERT INTO user_versions (user_name, version) SELECT u, 0 FROM unnest(missing) AS u ORDER BY u
                ON CONFLICT (user_name) DO NOTHING;
                locking := missing;
            END LOOP;

            WITH claimed AS (INSERT INTO event_ids (user_name, id) SELECT u, i FROM unnest(p_users, p_ids) AS t(u, i)
                             ON CONFLICT DO NOTHING RETURNING user_name, id),
                 firsts AS (SELECT min(t.n)::int4 AS n FROM unnest(p_users, p_ids) WITH ORDINALITY AS t(u, i, n)
                            JOIN claimed c ON c.user_name = t.u AND c.id = t.i GROUP BY t.u, t.i)
            SELECT coalesce(array_agg(n ORDER BY n), '{}') INTO o_added FROM firsts;

            named := ARRAY(SELECT t.a FROM unnest(p_apps) WITH ORDINALITY AS t(a, n) JOIN unnest(o_added) AS x(n) ON x.n = t.n
                           WHERE t.a <> '' GROUP BY t.a ORDER BY min(t.n));
            IF cardinality(named) > 0 THEN
                INSERT INTO apps (name) SELECT a FROM unnest(named) WITH ORDINALITY AS t(a, n)
                WHERE NOT EXISTS (SELECT 1 FROM apps p WHERE p.name = t.a) ORDER BY n
                ON CONFLICT (name) DO NOTHING;
                IF (SELECT count(*) FROM (SELECT 1 FROM apps WHERE name = ANY(named) FOR KEY SHARE) held) < cardinality(named) THEN
                    RAISE EXCEPTION 'an app of the batch was deleted meanwhile' USING ERRCODE = 'foreign_key_violation';
                END IF;
            END IF;

            INSERT INTO events (user_id, ts, kind, app, value, occurrence, utc_offset, unix_form)
            SELECT v.id, t.ts, t.k, t.a, t.v,
                   (SELECT count(*) FROM events e WHERE e.user_id = v.id AND e.ts = t.ts AND e.kind = t.k AND e.app = t.a AND e.value = t.v)
                     + row_number() OVER (PARTITION BY v.id, t.ts, t.k, t.a, t.v ORDER BY t.n) - 1,
                   t.o, t.f
            FROM (SELECT t.u, t.ts, t.k, coalesce(p.id, 0) AS a, t.v, t.o, t.f, t.n
                  FROM unnest(p_users, p_ts, p_kinds, p_apps, p_values, p_offsets, p_unix) WITH ORDINALITY AS t(u, ts, k, name, v, o, f, n)
                  JOIN unnest(o_added) AS x(n) ON x.n = t.n
                  LEFT JOIN apps p ON t.name <> '' AND p.name = t.name) t
            JOIN user_versions v ON v.user_name = t.u;

            INSERT INTO user_apps (user_name, app)
            SELECT DISTINCT t.u, p.id FROM unnest(p_users, p_apps) WITH ORDINALITY AS t(u, name, n)
            JOIN unnest(o_added) AS x(n) ON x.n = t.n JOIN apps p ON p.name = t.name
            ON CONFLICT DO NOTHING;

            WITH steps AS (SELECT row_number() OVER (ORDER BY d.b, d.u COLLATE "C") AS s, d.b, d.u
                           FROM (SELECT DISTINCT t.b, t.u FROM unnest(p_batches, p_users) WITH ORDINALITY AS t(b, u, n)
                                 JOIN unnest(o_added) AS x(n) ON x.n = t.n) d),
                 taken AS (SELECT array_agg(v ORDER BY v) AS vs FROM (SELECT nextval('store_version') AS v FROM steps) q),
                 valued AS (SELECT s.s, s.b, s.u, taken.vs[s.s] AS v,
                                   coalesce(lag(taken.vs[s.s]) OVER (PARTITION BY s.u ORDER BY s.s), o.version) AS before
                            FROM steps s CROSS JOIN taken JOIN user_versions o ON o.user_name = s.u)
            SELECT coalesce(array_agg(b ORDER BY s), '{}'), coalesce(array_agg(u ORDER BY s), '{}'),
                   coalesce(array_agg(before ORDER BY s), '{}'), coalesce(array_agg(v ORDER BY s), '{}')
            INTO o_batches, o_users, o_befores, o_afters FROM valued;

            UPDATE user_versions x SET version = l.v
            FROM (SELECT DISTINCT ON (u) u, v FROM unnest(o_users, o_afters) WITH ORDINALITY AS t(u, v, s) ORDER BY u, s DESC) l
            WHERE x.user_name = l.u;
            RETURN NEXT;
        END
        $$
        """

    /// One call of ``appendGroupFunction``.
    struct AppendGroup: PostgresPreparedStatement {
        static let name = "fetchsched_append_group"
        static let sql = "SELECT * FROM fetchsched_append_group($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        typealias Row = ([Int32], [Int32], [String], [Int64], [Int64])
        var events: [IdentifiedEvent]
        var batches: [Int32]

        func makeBindings() -> PostgresBindings {
            var b = PostgresBindings()
            b.append(events.map(\.user))
            b.append(events.map(\.id))
            b.append(batches)
            b.append(events.map(\.event.time.millis))
            b.append(events.map { Int16($0.event.kind.rawValue) })
            b.append(events.map { $0.event.app < 0 ? "" : $0.appName })
            b.append(events.map(\.event.value))
            b.append(events.map(\.event.offsetMinutes))
            b.append(events.map(\.event.unixForm))
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Writes every batch of the group in one call (``appendGroupFunction``), with the outcomes
    /// batch by batch would give. When the database refuses for another reason than a conflict
    /// with another writer, it throws ``AtOnceRefused``: nothing of the call is kept, and the
    /// caller writes the group batch by batch, each all or nothing.
    func appendAtOnce(_ batches: [[IdentifiedEvent]], _ conn: PostgresConnection) async throws -> [AppendOutcome] {
        let events = batches.flatMap { $0 }
        let numbers = batches.enumerated().flatMap { b, batch in repeatElement(Int32(b), count: batch.count) }
        var outcomes = Array(repeating: AppendOutcome(added: [], steps: [:]), count: batches.count)
        do {
            for try await (added, stepBatches, users, befores, afters) in try await conn.execute(
                AppendGroup(events: events, batches: numbers), logger: logger) {
                for place in added {
                    let i = Int(place) - 1
                    guard events.indices.contains(i) else { throw InputError("the store named an event the group does not have") }
                    outcomes[Int(numbers[i])].added.append(events[i])
                }
                guard [users.count, befores.count, afters.count].allSatisfy({ $0 == stepBatches.count }) else {
                    throw InputError("the store's version steps do not line up")
                }
                for s in stepBatches.indices {
                    guard outcomes.indices.contains(Int(stepBatches[s])) else { throw InputError("the store named a batch the group does not have") }
                    outcomes[Int(stepBatches[s])].steps[users[s]] = VersionStep(before: befores[s], after: afters[s])
                }
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] != nil && !Self.isRetryable(error) {
            throw AtOnceRefused(cause: error)
        }
        return outcomes
    }
}

/// A group the database refused to write at once (``PostgresStore/appendAtOnce(_:_:)``): it is
/// written again batch by batch; a group of one batch has failed.
struct AtOnceRefused: Error {
    /// The database's refusal.
    var cause: any Error
}
