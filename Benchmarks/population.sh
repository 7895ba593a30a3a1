#!/usr/bin/env bash
# A population run: generate USERS × DAYS, bench the five reference policies and then the full
# frontier (the sweeps of the families a user compares, and the two oracles) as SHARDS shards side by side, merge each,
# and report wall time, each shard's peak memory and the cost per million user-days. Shards run
# --by-user: a shard's memory then grows with its largest user, not with every user of the log
# live at once, nor with its report's rows, which wait on disk (BY_USER=0 runs them in time
# order, to compare).
# Usage: Benchmarks/population.sh [users] [days] [shards]   (from the repository root; not in CI)
# PARALLEL=N runs at most N shards at a time (default: the number of cores). FRONTIER=0 runs the
# five reference policies only; FRONTIER=adaptive (families, comma-separated) sweeps those alone
# (bench --sweep), with the oracles; REFERENCE=0 runs the frontier only. FETCHSCHED=path runs that
# build instead of this checkout's (then nothing is built).
# WORK=DIR keeps the log, the shard reports and the merged tables there (default: a temporary
# directory, removed at the end).
set -euo pipefail
users=${1:-20000}; days=${2:-28}; shards=${3:-2}; parallel=${PARALLEL:-$(nproc)}
by_user=(--by-user); [[ "${BY_USER:-1}" == 0 ]] && by_user=()
if [[ -n "${WORK:-}" ]]; then
  work=$WORK; mkdir -p "$work"
else
  work=$(mktemp -d /tmp/fetchsched-population.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
# Shards run in the background: a stopped run takes them with it, and ends.
# (each job is /usr/bin/time, whose child is the shard).
trap 'for j in $(jobs -p); do pkill -TERM -P "$j"; kill "$j"; done 2>/dev/null; exit 130' INT TERM
if [[ -n "${FETCHSCHED:-}" ]]; then
  bin=$FETCHSCHED
else
  swift build -c release --product fetchsched >/dev/null 2>&1
  bin=$(swift build -c release --show-bin-path)/fetchsched
fi
frontier=${FRONTIER:-1}
sweep=(); [[ "$frontier" != 0 && "$frontier" != 1 ]] && sweep=(--sweep "$frontier")
log="$work/population.csv"
user_days=$((users * days))
echo "population: $users users × $days days = $user_days user-days, $shards shards, $parallel at a time, $(nproc) cores"
# A log made for the same size in WORK is used again.
if [[ -f "$log" && "$(cat "$work/generate.params" 2>/dev/null)" == "$users $days" ]]; then
  echo "generate: reusing $log"
else
  rm -f "$work/generate.params"
  /usr/bin/time -f "%e %M" -o "$work/generate.time" "$bin" generate --users "$users" --days "$days" --seed 11 --out "$log"
  echo "$users $days" > "$work/generate.params"
  read -r gen_s gen_kb < "$work/generate.time"
  echo "generate: ${gen_s} s, $(( $(stat -c %s "$log") / 1000000 )) MB, peak $((gen_kb / 1024)) MiB"
fi

# run NAME ARGS...: the bench as $shards shards at once, one thread each, then merge.
run() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  for ((i = 0; i < shards; i++)); do
    # At most $parallel shards at a time.
    while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
    /usr/bin/time -f "%e %U %S %M" -o "$work/$name-$i.time" \
      "$bin" bench "$log" "$@" "${by_user[@]}" --threads 1 --quiet --shard "$i/$shards" > "$work/$name-$i.json" &
  done
  wait
  "$bin" merge "$work/$name"-*.json --format markdown > "$work/$name.md"
  end=$(date +%s.%N)
  python3 - "$work" "$name" "$shards" "$start" "$end" "$user_days" <<'PY'
import sys
work, name, shards, start, end, user_days = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
wall = end - start
cpu, peaks = 0.0, []
for i in range(shards):
    e, u, s, kb = open(f"{work}/{name}-{i}.time").read().split()
    cpu += float(u) + float(s)
    peaks.append(int(kb) / 1024)
per_million = 1e6 / user_days
print(f"{name}: wall {wall:.1f} s (merge included), CPU {cpu:.1f} s; peak per shard "
      + ", ".join(f"{p:.0f} MiB" for p in peaks)
      + f"; per million user-days: {wall * per_million:.1f} s wall, {cpu * per_million:.1f} CPU-s")
PY
}

if [[ "${REFERENCE:-1}" != 0 ]]; then run reference --policies none,fixed:15m,ios,adaptive,oracle; fi
if [[ "$frontier" != 0 ]]; then run frontier --policies none --frontier "${sweep[@]}"; fi
echo "merged tables:$([[ "${REFERENCE:-1}" != 0 ]] && echo " $work/reference.md")$([[ "$frontier" != 0 ]] && echo " $work/frontier.md")"
if [[ -n "${WORK:-}" && "${REFERENCE:-1}" != 0 ]]; then head -8 "$work/reference.md"; fi
