#!/usr/bin/env bash
# Ingest speed next to the sqlite3 tool's .import of the same rows into the same table.
# Usage: Benchmarks/ingest-vs-sqlite3.sh [users] [days]   (from the repository root)
set -euo pipefail
users=${1:-1000}; days=${2:-28}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)/fetchsched
"$bin" generate --users "$users" --days "$days" --seed 1 --out "$work/log.csv"

start=$(date +%s.%N)
"$bin" ingest "$work/log.csv" --db "$work/ours.sqlite" --no-learn > "$work/ingest.txt"
end=$(date +%s.%N)
rows=$(sqlite3 "$work/ours.sqlite" "SELECT count(*) FROM events")
ours=$(python3 -c "print($end - $start)")

# The same rows, as the integers stored, imported by sqlite3 into the same table.
sqlite3 -csv "$work/ours.sqlite" "SELECT ts,user,kind,app,value,occurrence,utcOffset,unixForm FROM events" > "$work/rows.csv"
sqlite3 "$work/ours.sqlite" ".schema events" > "$work/schema.sql"
sqlite3 "$work/theirs.sqlite" "PRAGMA journal_mode=WAL;" ".read $work/schema.sql" > /dev/null
start=$(date +%s.%N)
sqlite3 "$work/theirs.sqlite" ".import --csv $work/rows.csv events"
end=$(date +%s.%N)
theirs=$(python3 -c "print($end - $start)")

python3 - "$rows" "$ours" "$theirs" <<'PY'
import sys
rows, ours, theirs = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
print(f"rows: {rows}")
print(f"fetchsched ingest (parses the CSV log: ISO timestamps, names): {ours:.2f} s, {rows/ours:,.0f} rows/s")
print(f"sqlite3 .import (integer rows, same table): {theirs:.2f} s, {rows/theirs:,.0f} rows/s")
print(f"ratio: {theirs/ours:.2f}x")
PY
