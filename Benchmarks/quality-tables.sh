#!/usr/bin/env bash
# The quality tables of Benchmarks/HISTORY.md: the frontiers on the real logs (development workspace only)
# and on a generated log of 200 users × 35 days, with the HTML reports beside them.
# Usage: Benchmarks/quality-tables.sh [real-logs-dir] [out-dir]
set -euo pipefail
real=${1:-../shared/data/real}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)/fetchsched
policies=none,ios,android,adaptive,counts,appm,ebc,oracle
if compgen -G "$real/*.csv" >/dev/null; then
  echo "Real logs ($real):"
  /usr/bin/time -f "(%e s)" "$bin" bench "$real"/*.csv --scenario data/scenarios/default.json --policies "$policies" \
    --frontier --sweep all --format markdown --report "$out/real.html"
fi
"$bin" generate --users 200 --days 35 --seed 1 --out "$out/g200.csv"
echo "Generated, 200 users × 35 days:"
/usr/bin/time -f "(%e s)" "$bin" bench "$out/g200.csv" --scenario data/scenarios/default.json --policies "$policies" \
  --frontier --sweep all --format markdown --report "$out/generated.html"
echo "HTML reports with the frontier charts: $out/real.html, $out/generated.html"
# The prediction benchmark on the same logs: every model's chance of a stale open soon, scored
# forward only, with what each signal of the learned model adds.
if compgen -G "$real/*.csv" >/dev/null; then
  echo "Prediction, real logs:"
  "$bin" predict "$real"/*.csv --scenario data/scenarios/default.json --leave-one-out --format markdown --report "$out/predict-real.html"
fi
echo "Prediction, generated:"
"$bin" predict "$out/g200.csv" --scenario data/scenarios/default.json --format markdown --report "$out/predict-generated.html"
