#!/usr/bin/env bash
# Ingest into PostgreSQL next to psql's \copy of the same CSV into a plain five-column table,
# then a second log as large into the same store.
# Usage: PG_CLUSTER=postgres://… Benchmarks/ingest-vs-copy.sh [users] [days]
# (from the repository root; scripts/pg-cluster.sh start DIR prints a cluster's URL). Each side
# gets a fresh database, dropped afterwards.
set -euo pipefail
: "${PG_CLUSTER:?set PG_CLUSTER to a cluster URL, e.g. \$(scripts/pg-cluster.sh start /tmp/pg)}"
users=${1:-1000}; days=${2:-28}
work=$(mktemp -d)
ours="load_ours_$$"; theirs="load_copy_$$"
base=${PG_CLUSTER%/*}
cleanup() {
  psql "$PG_CLUSTER" -qc "DROP DATABASE IF EXISTS $ours WITH (FORCE)" -c "DROP DATABASE IF EXISTS $theirs WITH (FORCE)" || true
  rm -rf "$work"
}
trap cleanup EXIT
bin=${FETCHSCHED:-$(swift build -c release --show-bin-path)/fetchsched}
"$bin" generate --users "$users" --days "$days" --seed 1 --out "$work/log.csv"
psql "$PG_CLUSTER" -qc "CREATE DATABASE $ours" -c "CREATE DATABASE $theirs"
# The schema first, so that both sides time the rows only.
"$bin" ingest "$work/log.csv" --db "$base/$ours" --no-learn > /dev/null
psql "$base/$ours" -qc "TRUNCATE events, user_apps, user_versions, apps CASCADE"

start=$(date +%s.%N)
"$bin" ingest "$work/log.csv" --db "$base/$ours" --no-learn > "$work/ingest.txt"
end=$(date +%s.%N)
rows=$(psql "$base/$ours" -tAc "SELECT count(*) FROM events")
t_ours=$(python3 -c "print($end - $start)")

# A second log as large (another seed: the same users and apps, other events) into the store
# that now holds the first.
"$bin" generate --users "$users" --days "$days" --seed 2 --out "$work/second.csv"
start=$(date +%s.%N)
"$bin" ingest "$work/second.csv" --db "$base/$ours" --no-learn > "$work/ingest2.txt"
end=$(date +%s.%N)
t_second=$(python3 -c "print($end - $start)")

psql "$base/$theirs" -qc "CREATE TABLE plain (ts text, user_name text, app text, event text, value text)"
start=$(date +%s.%N)
psql "$base/$theirs" -qc "\\copy plain FROM '$work/log.csv' WITH (FORMAT csv, HEADER true)"
end=$(date +%s.%N)
t_copy=$(python3 -c "print($end - $start)")

python3 - "$rows" "$t_ours" "$t_copy" "$t_second" <<'PY'
import sys
rows, ours, copy, second = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
print(f"rows: {rows}")
print(f"fetchsched ingest --no-learn into PostgreSQL (parse, COPY, the key; into a store with events: COPY to staging, then the move): {ours:.2f} s, {rows/ours:,.0f} rows/s")
print(f"psql \\copy of the CSV into a plain five-column text table: {copy:.2f} s, {rows/copy:,.0f} rows/s")
print(f"ratio: {copy/ours:.2f}x the speed of COPY")
print(f"a second log as large (seed 2) into the store holding the first: {second:.2f} s")
PY
