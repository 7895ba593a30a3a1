#!/usr/bin/env bash
# The quality tables of README.md: every policy on the real logs (development workspace only)
# and on a generated log of 200 users × 35 days. Usage: Benchmarks/quality-tables.sh [real-logs-dir]
set -euo pipefail
real=${1:-../shared/data/real}
swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)/fetchsched
policies=none,fixed:15m,fixed:30m,fixed:60m,fixed:2h,ios,android,adaptive,adaptive:0.04,oracle
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if compgen -G "$real/*.csv" >/dev/null; then
  echo "Real logs ($real):"
  /usr/bin/time -f "(%e s)" "$bin" bench "$real"/*.csv --scenario data/scenarios/default.json --policies "$policies" --format markdown
fi
"$bin" generate --users 200 --days 35 --seed 1 --out "$work/g200.csv"
echo "Generated, 200 users × 35 days:"
/usr/bin/time -f "(%e s)" "$bin" bench "$work/g200.csv" --scenario data/scenarios/default.json --policies "$policies" --format markdown
