#!/usr/bin/env bash
# Fuzzes the HTTP API with schemathesis (PyPI) against its own OpenAPI document: no server
# errors, and every response matches the document (status codes, schemas, content types).
# Then stops the server with SIGTERM and checks it shut down cleanly.
#   scripts/api-fuzz.sh [examples per operation, default 50]
# With PG_CLUSTER set to a cluster's URL (scripts/pg-cluster.sh prints one), the server keeps
# its store in a fresh PostgreSQL database there instead of a SQLite file.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${FETCHSCHED:-.build/release/fetchsched}
PORT=${PORT:-18090}
EXAMPLES=${1:-50}
command -v st >/dev/null || pip install -q schemathesis
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$dir"' EXIT
TOKEN=schemathesis-token-0001
echo "{\"tokens\":[{\"token\":\"$TOKEN\",\"tenant\":\"fuzz\"}]}" > "$dir/tokens.json"
DB="$dir/store.sqlite"
if [ -n "${PG_CLUSTER:-}" ]; then
  name="fuzz_$$"
  psql "$PG_CLUSTER" -qc "CREATE DATABASE $name"
  DB="${PG_CLUSTER%/*}/$name"
fi
"$BIN" serve --db "$DB" --port "$PORT" --tokens "$dir/tokens.json" 2> "$dir/server.log" &
pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.1; done
# A user and app for the routes that need one (the document's examples name them).
curl -sf -X POST "http://127.0.0.1:$PORT/v1/events" -H "Authorization: Bearer $TOKEN" -d '{"events":[
  {"id":"seed-1","user":"alice","timestamp":"2025-01-06T07:30:00+01:00","event":"open","app":"news"},
  {"id":"seed-2","user":"alice","timestamp":"2025-01-07T07:30:00+01:00","event":"open","app":"news"}]}' >/dev/null
(cd "$dir" && st run "http://127.0.0.1:$PORT/openapi.json" -H "Authorization: Bearer $TOKEN" \
  --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
  -n "$EXAMPLES" --seed 1 --workers 1)
kill -TERM $pid
status=0; wait $pid || status=$?
pid=
if [ "$status" -ne 0 ]; then echo "server exited with $status after SIGTERM"; tail -20 "$dir/server.log"; exit 1; fi
[ -n "${PG_CLUSTER:-}" ] && psql "$PG_CLUSTER" -qc "DROP DATABASE $name WITH (FORCE)"
echo "api-fuzz ($DB): no server errors; SIGTERM shut the server down cleanly"
