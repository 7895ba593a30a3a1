#!/usr/bin/env bash
# Ingest speed next to the sqlite3 tool's .import of the same CSV log.
# Usage: Benchmarks/ingest-vs-sqlite3.sh [users] [days]   (from the repository root)
#
# fetchsched ingest parses and checks every row (timestamps, names, order), stores the events
# with their indexes and, by default, learns each user's model. sqlite3's .import takes the CSV
# as given into a plain five-column text table, WAL, one transaction: no parsing beyond CSV,
# no index. Both the default ingest and --no-learn are timed.
set -euo pipefail
users=${1:-1000}; days=${2:-28}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product fetchsched >/dev/null 2>&1
bin=$(swift build -c release --show-bin-path)/fetchsched
"$bin" generate --users "$users" --days "$days" --seed 11 --out "$work/log.csv"

elapsed() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); python3 -c "print($e - $s)"; }
learn=$(elapsed "$bin" ingest "$work/log.csv" --db "$work/learn.sqlite")
nolearn=$(elapsed "$bin" ingest "$work/log.csv" --db "$work/nolearn.sqlite" --no-learn)
rows=$(sqlite3 "$work/learn.sqlite" "SELECT count(*) FROM events")

sqlite3 "$work/theirs.sqlite" "PRAGMA journal_mode=WAL;" \
    "CREATE TABLE log(timestamp TEXT, user TEXT, app TEXT, event TEXT, value TEXT);" > /dev/null
theirs=$(elapsed sqlite3 "$work/theirs.sqlite" ".import --csv --skip 1 $work/log.csv log")
copied=$(sqlite3 "$work/theirs.sqlite" "SELECT count(*) FROM log")

python3 - "$rows" "$copied" "$learn" "$nolearn" "$theirs" <<'PY'
import sys
rows, copied = int(sys.argv[1]), int(sys.argv[2])
learn, nolearn, theirs = map(float, sys.argv[3:])
assert rows == copied, (rows, copied)
print(f"rows: {rows}")
print(f"sqlite3 .import (CSV as given, plain table, WAL): {theirs:.2f} s, {rows/theirs:,.0f} rows/s")
print(f"fetchsched ingest (models learned): {learn:.2f} s, {rows/learn:,.0f} rows/s, {theirs/learn:.2f}x the speed of .import")
print(f"fetchsched ingest --no-learn: {nolearn:.2f} s, {rows/nolearn:,.0f} rows/s, {theirs/nolearn:.2f}x the speed of .import")
PY
