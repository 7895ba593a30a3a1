#!/usr/bin/env bash
# Load on `fetchsched serve` with wrk (Debian's package), 127.0.0.1 only, bounded in time:
# the next-fetch plan route and event ingest, next to the bare /health route in the same run.
#   Benchmarks/load.sh [seconds per route, default 10] [connections, default 16]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${FETCHSCHED:-.build/release/fetchsched}
SECONDS_PER=${1:-10}
CONN=${2:-16}
PORT=${PORT:-18092}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
"$BIN" ingest data/sample.csv --db "$dir/store.sqlite" > /dev/null
"$BIN" serve --db "$dir/store.sqlite" --port "$PORT" 2> "$dir/server.log" &
pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.1; done

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
# Batches of 10 new events (unique ids, moving time) for 50 load users.
cat > "$dir/ingest.lua" <<'LUA'
local n = 0
local thread_id = 0
setup = function(thread) thread:set("tid", thread_id); thread_id = thread_id + 1 end
request = function()
  n = n + 1
  local parts = {}
  for k = 1, 10 do
    local i = n * 10 + k
    local t = 1736150400 + i * 7
    parts[k] = string.format('{"id":"w%d-%d","user":"load-%d","timestamp":"%d","event":"open","app":"com.example.app%d"}',
                             tid, i, n % 50, t, k % 5)
  end
  return wrk.format("POST", "/v1/events", {["Content-Type"] = "application/json"}, '{"events":[' .. table.concat(parts, ",") .. ']}')
end
LUA
for p in $(seq 1 8); do curl -sf "http://127.0.0.1:$PORT/v1/users/user-000$p/apps/com.example.news/plan" > /dev/null || true; done

run() {  # name, wrk args…
  local name=$1; shift
  local out; out=$(wrk -t1 -c"$CONN" -d"${SECONDS_PER}s" --latency "$@")
  local rps p50 p99 errors
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  errors=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  printf '| %s | %s | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p99" "${errors:-0}"
}
echo "| route | requests/s | p50 | p99 | non-2xx |"
echo "|---|---:|---:|---:|---:|"
run "GET /health (bare)" "http://127.0.0.1:$PORT/health"
run "GET plan" -s "$dir/plan.lua" "http://127.0.0.1:$PORT"
run "POST /v1/events (10 events)" -s "$dir/ingest.lua" "http://127.0.0.1:$PORT"
run "GET /health (bare, again)" "http://127.0.0.1:$PORT/health"
