#!/usr/bin/env python3
"""Writes data/import/knowledgec/knowledgeC.db: a small iOS knowledgeC.db for `import --from knowledgec`.

The ZOBJECT table has the columns iOS 10 to 15 write (as public forensic work documents them:
mac4n6's APOLLO knowledge_* modules, Sarah Edwards' "Knowledge is Power" posts), with records
of the four streams import reads and two it passes over, on two days in two UTC offsets.
Dates are Core Data's: seconds since 2001-01-01 UTC. Usage: scripts/knowledgec-fixture.py [out.db]
"""
import datetime, os, sqlite3, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data/import/knowledgec/knowledgeC.db")
if os.path.exists(out):
    os.remove(out)
EPOCH = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)

def core(local, offset_hours):
    """Core Data seconds of a local wall time in a fixed UTC offset."""
    tz = datetime.timezone(datetime.timedelta(hours=offset_hours))
    return (datetime.datetime.fromisoformat(local).replace(tzinfo=tz) - EPOCH).total_seconds()

db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUUIDHASH INTEGER,
  ZSTARTDATE TIMESTAMP, ZENDDATE TIMESTAMP, ZCREATIONDATE TIMESTAMP, ZSECONDSFROMGMT INTEGER,
  ZSTREAMNAME VARCHAR, ZVALUESTRING VARCHAR, ZVALUEINTEGER INTEGER, ZVALUEDOUBLE FLOAT,
  ZVALUECLASS INTEGER, ZVALUETYPECODE INTEGER, ZSOURCE INTEGER, ZSTRUCTUREDMETADATA INTEGER,
  ZHASSTRUCTUREDMETADATA INTEGER, ZIDENTIFIERTYPE INTEGER, ZCONFIDENCE FLOAT, ZUUID BLOB, ZMETADATA BLOB);
CREATE TABLE ZSOURCE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBUNDLEID VARCHAR, ZSOURCEID VARCHAR);
CREATE TABLE ZSTRUCTUREDMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
CREATE INDEX Z_OBJECT_ZSTREAMNAME ON ZOBJECT (ZSTREAMNAME);
""")
cet, edt = 1, -4
rows = [
    # stream, start, end, offset hours, string, integer, double
    ("/device/isLocked", "2024-03-11 07:58:00", "2024-03-11 08:09:10", cet, None, 0, None),
    ("/app/inFocus", "2024-03-11 07:58:10", "2024-03-11 08:04:00", cet, "com.atebits.Tweetie2", None, None),
    ("/display/isBacklit", "2024-03-11 07:58:00", "2024-03-11 08:09:10", cet, None, 1, None),
    ("/app/inFocus", "2024-03-11 08:04:00", "2024-03-11 08:07:00", cet, "com.apple.mobilemail", None, None),
    ("/app/inFocus", "2024-03-11 08:07:30", "2024-03-11 08:09:00", cet, "com.atebits.Tweetie2", None, None),
    ("/safari/history", "2024-03-11 08:08:00", "2024-03-11 08:08:30", cet, "https://example.org/", None, None),
    ("/device/isLocked", "2024-03-11 08:09:10", "2024-03-11 12:15:40", cet, None, 1, None),
    ("/device/isPluggedIn", "2024-03-11 22:00:00", "2024-03-11 23:40:00", cet, None, 1, None),
    ("/device/batteryPercentage", "2024-03-11 22:00:00", "2024-03-11 23:30:00", cet, None, None, 35.0),
    ("/device/batteryPercentage", "2024-03-11 23:30:00", "2024-03-11 23:40:00", cet, None, None, 80.0),
    ("/device/isPluggedIn", "2024-03-11 23:40:00", "2024-03-12 09:00:00", cet, None, 0, None),
    # Next day, in New York: the records carry the device's offset of the moment.
    ("/device/isLocked", "2024-03-12 11:00:00", "2024-03-12 11:20:00", edt, None, 0, None),
    ("/app/inFocus", "2024-03-12 11:00:05", "2024-03-12 11:19:00", edt, "net.whatsapp.WhatsApp", None, None),
    ("/device/isLocked", "2024-03-12 11:20:00", "2024-03-12 18:00:00", edt, None, 1, None),
]
for i, (stream, start, end, hours, string, integer, double) in enumerate(rows, 1):
    db.execute("INSERT INTO ZOBJECT (Z_PK, Z_ENT, Z_OPT, ZSTARTDATE, ZENDDATE, ZCREATIONDATE, ZSECONDSFROMGMT, ZSTREAMNAME,"
               " ZVALUESTRING, ZVALUEINTEGER, ZVALUEDOUBLE, ZVALUECLASS) VALUES (?, 11, 1, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
               (i, core(start, hours), core(end, hours), core(end, hours), hours * 3600, stream, string, integer, double))
db.commit()
db.execute("VACUUM")
db.close()
print(f"wrote {len(rows)} records to {out}")
