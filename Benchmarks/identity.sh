#!/usr/bin/env bash
# Byte-identity of two builds: runs OLD's and NEW's fetchsched on the same logs and compares every
# output with cmp. A change meant to make the engine faster, not different, passes it.
# Usage: Benchmarks/identity.sh OLD NEW [LOG ...]   (from the repository root; not in CI)
# OLD and NEW are fetchsched binaries. The logs are data/sample.csv, a generated population (NEW
# generate --users 60 --days 21 --seed 5 with pushes, location and notifications) and any LOG given
# (the development logs, say: ../shared/data/real/*.csv). For each, both builds write: bench JSON of
# the reference and the default's policies; --per user, --per day and --per app CSV; the default
# frontier as JSON (by user, in time order, one thread) and markdown (its per-user table); the sweep of
# ev-habits, whose points share their scores, by user and in time order; traces of
# five policies; three shards and their merge (which must also be NEW's unsharded JSON, as its
# frontier by user must be its frontier in time order). WORK=DIR keeps the outputs there (default: a
# temporary directory, removed at the end). Exits 1 when any output differs, naming it.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 OLD NEW [LOG ...]" >&2; exit 2; }
old=$1 new=$2; shift 2
if [[ -n "${WORK:-}" ]]; then
  work=$WORK; mkdir -p "$work"
else
  work=$(mktemp -d /tmp/fetchsched-identity.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
"$new" generate --users 60 --days 21 --seed 5 --pushes --location --notifications --out "$work/g60.csv"
logs=(data/sample.csv "$work/g60.csv" "$@")
policies=none,fixed:15m,ios,android,android-prefetch,counts,appm,ebc,adaptive,adaptive@0.1,adaptive:0.001,ev-habits,oracle,oracle:opens
policies+=,oracle:hindsight,oracle:hindsight@0.1

# outputs BUILD DIR LOG: every output of one build on one log, in DIR.
outputs() {
  local bin=$1 dir=$2 log=$3
  mkdir -p "$dir"
  "$bin" bench "$log" --policies "$policies" --format json --quiet > "$dir/bench.json"
  "$bin" bench "$log" --policies "$policies" --per user --format csv --quiet > "$dir/user.csv"
  "$bin" bench "$log" --policies "$policies" --per day --format csv --quiet > "$dir/day.csv"
  "$bin" bench "$log" --policies adaptive,counts --per app --format csv --quiet > "$dir/app.csv"
  "$bin" bench "$log" --policies none --frontier --format json --by-user --quiet > "$dir/frontier-by-user.json"
  "$bin" bench "$log" --policies none --frontier --format json --threads 1 --quiet > "$dir/frontier-one-thread.json"
  "$bin" bench "$log" --policies none --frontier --format markdown --quiet > "$dir/frontier.md"
  # A family whose points share their predictor's scores (SharedScores), by user and in time order.
  "$bin" bench "$log" --policies none --frontier --sweep ev-habits --format json --by-user --quiet > "$dir/habits-by-user.json"
  "$bin" bench "$log" --policies none --frontier --sweep ev-habits --format json --threads 1 --quiet > "$dir/habits-one-thread.json"
  for p in fixed:15m ios adaptive ebc oracle:hindsight; do
    "$bin" replay "$log" --policy "$p" --trace "$dir/trace-${p//:/-}.csv" > "$dir/replay-${p//:/-}.txt"
  done
  for i in 0 1 2; do
    "$bin" bench "$log" --policies "$policies" --shard "$i/3" --by-user --quiet > "$dir/shard-$i.json"
  done
  "$bin" merge "$dir"/shard-*.json --format json > "$dir/merged.json"
}

differ=0 files=0
for log in "${logs[@]}"; do
  name=$(basename "$log" .csv)
  outputs "$old" "$work/old/$name" "$log"
  outputs "$new" "$work/new/$name" "$log"
  for f in "$work/old/$name"/*; do
    files=$((files + 1))
    if ! cmp -s "$f" "$work/new/$name/$(basename "$f")"; then
      echo "differs: $name/$(basename "$f")"
      differ=$((differ + 1))
    fi
  done
  # Within NEW: the merged shards are the unsharded run, and by user is the same as one thread in time order.
  for pair in "bench.json merged.json" "frontier-by-user.json frontier-one-thread.json" "habits-by-user.json habits-one-thread.json"; do
    read -r a b <<< "$pair"
    files=$((files + 1))
    if ! cmp -s "$work/new/$name/$a" "$work/new/$name/$b"; then
      echo "differs: $name/$a and $name/$b of NEW"
      differ=$((differ + 1))
    fi
  done
done
echo "identity: $files files on ${#logs[@]} logs, $differ different"
[[ $differ == 0 ]]
