#!/usr/bin/env python3
"""Writes data/import/wellbeing/app_usage: a small Digital Wellbeing database for `import --from wellbeing`.

The tables are those Android's Digital Wellbeing app (com.google.android.apps.wellbeing) writes in
databases/app_usage, as public forensic work reads them (plaso's android_app_usage plugin, ALEAPP's
wellbeing module): `events` (_id, timestamp in UTC milliseconds, type in Android's UsageEvents codes,
package_id, instance_id, task_root_package_id), `packages`, `components` and `component_events`.
The events are two mornings of one person in Berlin, across the autumn change of the clocks
(2024-10-27), worked by hand in Tests/FetchCLITests/WellbeingImportTests.swift.
Usage: scripts/wellbeing-fixture.py [out]
"""
import datetime, os, sqlite3, sys, zoneinfo

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data/import/wellbeing/app_usage")
for suffix in ("", "-wal", "-shm", "-journal"):
    if os.path.exists(out + suffix):
        os.remove(out + suffix)
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")

def millis(local):
    """UTC milliseconds of a wall time in Berlin (after the change, the later reading)."""
    t = datetime.datetime.fromisoformat(local).replace(tzinfo=BERLIN, fold=1)
    return int(t.timestamp() * 1000)

db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE packages (_id INTEGER PRIMARY KEY,package_name TEXT, UNIQUE(package_name) ON CONFLICT ABORT);
CREATE TABLE components(_id INTEGER PRIMARY KEY,component_name TEXT NOT NULL,package_id INTEGER NOT NULL REFERENCES packages(_id)
  ON UPDATE CASCADE ON DELETE CASCADE, UNIQUE (package_id,component_name) ON CONFLICT ABORT);
CREATE TABLE component_events(_id INTEGER PRIMARY KEY,timestamp INTEGER NOT NULL,type INTEGER NOT NULL,component_id INTEGER NOT NULL
  REFERENCES components(_id) ON UPDATE CASCADE ON DELETE CASCADE, UNIQUE(timestamp,type,component_id) ON CONFLICT IGNORE);
CREATE TABLE "events" (_id INTEGER PRIMARY KEY,timestamp INTEGER NOT NULL,type INTEGER NOT NULL,package_id INTEGER NOT NULL
  REFERENCES packages(_id) ON UPDATE CASCADE ON DELETE CASCADE ,instance_id INTEGER DEFAULT NULL, task_root_package_id INTEGER
  DEFAULT NULL REFERENCES packages(_id) ON UPDATE CASCADE ON DELETE CASCADE);
CREATE INDEX events_timestamp_index ON events (timestamp ASC);
""")
packages = ["android", "com.whatsapp", "com.google.android.apps.nexuslauncher", "com.google.android.documentsui",
            "com.android.systemui", "com.google.android.gm", "com.spotify.music", "com.android.chrome"]
for i, name in enumerate(packages, 1):
    db.execute("INSERT INTO packages VALUES (?, ?)", (i, name))
pid = {name: i for i, name in enumerate(packages, 1)}
UNLOCK, RESUMED, PAUSED, NOTIFIED, SERVICE, STOPPED, SHUTDOWN, STARTUP = 18, 1, 2, 12, 19, 23, 26, 27
events = [
    # local time (Berlin), type, package, task root
    ("2024-10-26 08:00:00.000", UNLOCK, "android", None),
    ("2024-10-26 08:00:01.000", RESUMED, "com.whatsapp", "com.whatsapp"),
    ("2024-10-26 08:00:30.000", PAUSED, "com.whatsapp", "com.whatsapp"),
    ("2024-10-26 08:00:30.100", RESUMED, "com.google.android.apps.nexuslauncher", "com.google.android.apps.nexuslauncher"),
    ("2024-10-26 08:00:32.000", RESUMED, "com.whatsapp", "com.whatsapp"),
    # A document picker in WhatsApp's task is WhatsApp's screen.
    ("2024-10-26 08:01:00.000", RESUMED, "com.google.android.documentsui", "com.whatsapp"),
    ("2024-10-26 08:01:20.000", RESUMED, "com.whatsapp", "com.whatsapp"),
    ("2024-10-26 08:02:00.000", NOTIFIED, "com.google.android.gm", None),
    ("2024-10-26 08:02:05.000", STOPPED, "com.whatsapp", "com.whatsapp"),
    # The screen went off unrecorded; the unlock starts a new visit to the app left in front.
    ("2024-10-26 12:30:00.000", UNLOCK, "android", None),
    ("2024-10-26 12:30:00.500", RESUMED, "com.whatsapp", "com.whatsapp"),
    ("2024-10-26 12:31:00.000", RESUMED, "com.android.systemui", "com.android.systemui"),
    ("2024-10-26 12:31:05.000", RESUMED, "com.whatsapp", "com.whatsapp"),
    ("2024-10-26 12:32:00.000", RESUMED, "com.google.android.gm", "com.google.android.gm"),
    ("2024-10-26 23:00:00.000", SHUTDOWN, "android", None),
    # After the clocks went back: +01:00.
    ("2024-10-27 07:00:00.000", STARTUP, "android", None),
    ("2024-10-27 07:00:40.000", UNLOCK, "android", None),
    ("2024-10-27 07:00:41.000", RESUMED, "com.google.android.gm", "com.google.android.gm"),
    ("2024-10-27 07:05:00.000", SERVICE, "com.spotify.music", None),
    ("2024-10-27 07:06:00.000", 99, "com.spotify.music", None),
    ("2024-10-27 07:10:00.000", RESUMED, "com.android.chrome", "com.android.chrome"),
]
for i, (local, kind, package, root) in enumerate(events, 1):
    db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
               (100 + i, millis(local), kind, pid[package], 0 if root is None else 1000 + i, pid[root] if root else None))
db.execute("INSERT INTO components VALUES (1, 'https://example.org/', ?)", (pid["com.android.chrome"],))
db.execute("INSERT INTO component_events VALUES (1, ?, 1, 1)", (millis("2024-10-27 07:10:01.000"),))
db.commit()
db.execute("VACUUM")
db.close()
print(f"wrote {len(events)} events to {out}")
