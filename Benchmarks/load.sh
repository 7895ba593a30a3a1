#!/usr/bin/env bash
# Load on `fetchsched serve` with wrk (Debian's package), 127.0.0.1 only, bounded in time:
# the next-fetch plan route and event ingest, next to the bare /health route in the same run.
#   Benchmarks/load.sh [seconds per route, default 10] [connections, default 16]
# With PG_CLUSTER set to a PostgreSQL cluster's URL (scripts/pg-cluster.sh prints one), the
# store is a fresh database there; INSTANCES=2 then runs two servers on it, each loaded by its
# own wrk with half the connections (requests/s summed, latencies the worse of the two).
# POLICY names the policy the servers plan under (serve --policy; adaptive unless set).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${FETCHSCHED:-.build/release/fetchsched}
SECONDS_PER=${1:-10}
CONN=${2:-16}
PORT=${PORT:-18092}
INSTANCES=${INSTANCES:-1}
POLICY=${POLICY:-adaptive}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
dir=$(mktemp -d)
pids=()
DB="$dir/store.sqlite"
if [ -n "${PG_CLUSTER:-}" ]; then
  name="load_$$"
  psql "$PG_CLUSTER" -qc "CREATE DATABASE $name"
  DB="${PG_CLUSTER%/*}/$name"
fi
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "${PG_CLUSTER:-}" ] && psql "$PG_CLUSTER" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)"
  rm -rf "$dir"
}
trap cleanup EXIT
"$BIN" ingest data/sample.csv --db "$DB" > /dev/null
ports=()
for i in $(seq 0 $((INSTANCES - 1))); do
  ports+=($((PORT + i)))
  "$BIN" serve --db "$DB" --port "$((PORT + i))" --policy "$POLICY" 2> "$dir/server-$i.log" &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$((PORT + i))/health" >/dev/null && break; sleep 0.1; done
done

# Plans for every user of the sample, one app each, in turn.
cat > "$dir/plan.lua" <<'LUA'
local users = {}
for i = 1, 8 do users[i] = string.format("user-%04d", i) end
local apps = {"com.example.news", "com.example.chat", "com.example.reader", "com.example.mail"}
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/v1/users/" .. users[n % 8 + 1] .. "/apps/" .. apps[n % 4 + 1] .. "/plan")
end
LUA
# Batches of 10 new events (unique ids, moving time) for 50 load users per wrk: with two
# instances each gets its own users, as routing by user would give it.
cat > "$dir/ingest.lua" <<'LUA'
local n = 0
local thread_id = 0
local prefix = "w"
setup = function(thread) thread:set("tid", thread_id); thread_id = thread_id + 1 end
init = function(args) prefix = args[1] or "w" end
request = function()
  n = n + 1
  local parts = {}
  for k = 1, 10 do
    local i = n * 10 + k
    local t = 1736150400 + i * 7
    parts[k] = string.format('{"id":"%s-%d-%d","user":"load-%s-%d","timestamp":"%d","event":"open","app":"com.example.app%d"}',
                             prefix, tid, i, prefix, n % 50, t, k % 5)
  end
  return wrk.format("POST", "/v1/events", {["Content-Type"] = "application/json"}, '{"events":[' .. table.concat(parts, ",") .. ']}')
end
LUA
for port in "${ports[@]}"; do
  for p in $(seq 1 8); do curl -sf "http://127.0.0.1:$port/v1/users/user-000$p/apps/com.example.news/plan" > /dev/null || true; done
done

ms() {  # a wrk latency (850.00us, 1.20ms, 2.00s) in milliseconds
  awk -v t="$1" 'BEGIN { v = t + 0; if (t ~ /us$/) v /= 1000; else if (t ~ /[0-9]s$/ && t !~ /ms$/) v *= 1000; printf "%.2f", v }'
}
run() {  # name, path (a URL path or a script), wrk args…
  local name=$1 path=$2; shift 2
  local i=0 wpids=()
  for port in "${ports[@]}"; do
    # Each wrk names its events apart (the script's argument), so both instances get new ids.
    wrk -t1 -c"$((CONN / INSTANCES))" -d"${SECONDS_PER}s" --latency "$@" "http://127.0.0.1:$port$path" -- "i$i" > "$dir/wrk-$i.out" &
    wpids+=($!)
    i=$((i + 1))
  done
  wait "${wpids[@]}"
  local rps=0 p50=0 p99=0 errors=0
  for f in "$dir"/wrk-*.out; do
    rps=$(awk -v a="$rps" '/Requests\/sec/ {printf "%.0f", a + $2}' "$f")
    p50=$(awk -v a="$p50" -v b="$(ms "$(awk '$1 == "50%" {print $2}' "$f")")" 'BEGIN {print (b > a ? b : a)}')
    p99=$(awk -v a="$p99" -v b="$(ms "$(awk '$1 == "99%" {print $2}' "$f")")" 'BEGIN {print (b > a ? b : a)}')
    errors=$((errors + $(awk '/Non-2xx/ {print $5}' "$f" | grep . || echo 0)))
  done
  rm -f "$dir"/wrk-*.out
  printf '| %s | %s | %s ms | %s ms | %s |\n' "$name" "$rps" "$p50" "$p99" "$errors"
}
echo "store: $([ -n "${PG_CLUSTER:-}" ] && echo PostgreSQL || echo SQLite), $INSTANCES instance(s), $CONN connections"
echo "| route | requests/s | p50 | p99 | non-2xx |"
echo "|---|---:|---:|---:|---:|"
run "GET /health (bare)" /health
run "GET plan" "" -s "$dir/plan.lua"
run "POST /v1/events (10 events)" "" -s "$dir/ingest.lua"
run "GET /health (bare, again)" /health
