#!/usr/bin/env bash
# A population run: generate USERS × DAYS, bench the five reference policies and then the full
# frontier (the sweeps of the families a user compares, and the two oracles) as SHARDS shards
# side by side, merge each, and report wall time, each shard's peak memory and the cost per million user-days. Shards run
# --by-user: a shard's memory then grows with its largest user, not with every user of the log
# live at once, nor with its report's rows, which wait on disk (BY_USER=0 runs them in time
# order, to compare).
# Usage: Benchmarks/population.sh [users] [days] [shards]   (from the repository root; not in CI)
# PARALLEL=N runs at most N shards at a time (default: the number of cores). FRONTIER=0 runs the
# five reference policies only; FRONTIER=adaptive (families, comma-separated) sweeps those alone
# (bench --sweep), with the oracles; REFERENCE=0 runs the frontier only. FETCHSCHED=path runs that
# build instead of this checkout's (then nothing is built).
# WORK=DIR keeps the log, the shard reports and the merged tables there (default: a temporary
# directory, removed at the end); run again with the same WORK and arguments, it keeps the shards
# an earlier run finished and runs the rest (a population too large for one sitting).
# SLURM=1 runs the shards through deploy/slurm (submit.sh: an array job and its merge) on a
# one-node cluster started for the run (scripts/slurm-cluster.sh), one task per core at a time,
# each shard's time and peak memory taken as locally (the tasks always run --by-user).
# UNSHARDED=1 also runs each bench unsharded (one thread per core; --by-user unless BY_USER=0)
# and compares its table with the merged one byte for byte.
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
slurm=${SLURM:-0}
if [[ "$slurm" == 1 ]]; then
  cluster="$work/slurm-cluster"
  slurm_jobs=()
  trap 'scancel "${slurm_jobs[@]}" 2>/dev/null; scripts/slurm-cluster.sh stop "$cluster" || true; [[ -n "${WORK:-}" ]] || rm -rf "$work"' EXIT
  eval "$(scripts/slurm-cluster.sh start "$cluster")"
fi
if [[ -n "${FETCHSCHED:-}" ]]; then
  bin=$FETCHSCHED
else
  swift build -c release --product fetchsched >/dev/null 2>&1
  bin=$(swift build -c release --show-bin-path)/fetchsched
fi
frontier=${FRONTIER:-1}
build=$(cksum < "$bin")
reference=none,fixed:15m,ios,adaptive,oracle
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
  if [[ "$slurm" == 1 ]]; then
    run_slurm "$name" "$@"
  else
    keep_or_clear "$name" "$@"
    for ((i = 0; i < shards; i++)); do
      if [[ -f "$work/$name-$i.json" ]]; then echo "$name: shard $i/$shards kept from an earlier run"; continue; fi
      # At most $parallel shards at a time.
      while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
      # Renamed when whole: a shard report that exists is complete, and a later run keeps it.
      { /usr/bin/time -f "%e %U %S %M" -o "$work/$name-$i.time" \
          "$bin" bench "$log" "$@" "${by_user[@]}" --threads 1 --quiet --shard "$i/$shards" > "$work/$name-$i.json.partial" \
          && mv "$work/$name-$i.json.partial" "$work/$name-$i.json"; } &
    done
    wait
    for ((i = 0; i < shards; i++)); do
      [[ -f "$work/$name-$i.json" ]] || { echo "population: shard $i/$shards of $name failed" >&2; exit 1; }
    done
    "$bin" merge "$work/$name"-*.json --format markdown > "$work/$name.md"
  fi
  end=$(date +%s.%N)
  python3 - "$work" "$name" "$shards" "$start" "$end" "$user_days" <<'PY'
import sys
work, name, shards, start, end, user_days = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
wall = end - start
cpu, peaks, walls = 0.0, [], []
for i in range(shards):
    e, u, s, kb = open(f"{work}/{name}-{i}.time").read().split()
    cpu += float(u) + float(s)
    peaks.append(int(kb) / 1024)
    walls.append(float(e))
per_million = 1e6 / user_days
print(f"{name}: wall {wall:.1f} s (merge included; shards kept from an earlier run count only in CPU), CPU {cpu:.1f} s; "
      + f"each shard {min(walls):.0f}–{max(walls):.0f} s wall; peak per shard " + ", ".join(f"{p:.0f} MiB" for p in peaks)
      + f"; per million user-days: {wall * per_million:.1f} s wall, {cpu * per_million:.1f} CPU-s")
PY
}

# keep_or_clear NAME ARGS...: the shard reports of an earlier run of NAME in WORK are kept when it
# had the same log, shards, arguments and build (so a run stopped midway, or spread over several
# sessions, goes on from the shards it finished); otherwise they are removed.
keep_or_clear() {
  local name=$1; shift
  # The build too: a shard of another build is not merged with this one's.
  local params="$users $days $shards $slurm ${by_user[*]} $* $build"
  if [[ "$(cat "$work/$name.params" 2>/dev/null)" != "$params" ]]; then
    rm -rf "$work/$name"-*.json "$work/$name"-*.json.partial "$work/$name"-*.time "$work/$name-slurm"
    echo "$params" > "$work/$name.params"
  fi
}

# run_slurm NAME ARGS...: the shards through deploy/slurm/submit.sh. The tasks run a wrapper that
# times the binary as the local shards are timed; the merge job writes NAME.md.
run_slurm() {
  local name=$1; shift
  local policies=none frontier_env=0 args=("$@")
  [[ "${args[0]}" == --policies ]] && policies=${args[1]}
  [[ " ${args[*]} " == *" --frontier "* ]] && frontier_env=1
  [[ " ${args[*]} " == *" --sweep "* ]] && frontier_env=$frontier
  cat > "$work/timed-fetchsched" <<SH
#!/usr/bin/env bash
[[ -n "\${SLURM_ARRAY_TASK_ID:-}" ]] || exec "$bin" "\$@"
exec /usr/bin/time -f "%e %U %S %M" -o "$work/$name-\$SLURM_ARRAY_TASK_ID.time" "$bin" "\$@"
SH
  chmod +x "$work/timed-fetchsched"
  keep_or_clear "$name" "$@"
  rm -f "$work/$name-slurm/report.markdown"
  # The shards an earlier run finished are kept: the others run, and the merge (submit.sh's TASKS).
  local missing=() array merge
  for ((i = 0; i < shards; i++)); do [[ -f "$work/$name-slurm/shard-$i.json" ]] || missing+=("$i"); done
  if ((${#missing[@]} == 0)); then
    "$bin" merge "$work/$name-slurm"/shard-*.json --format markdown > "$work/$name.md"
    return
  fi
  local tasks; tasks=$(IFS=,; echo "${missing[*]}")
  ((${#missing[@]} == shards)) && tasks=""
  read -r array merge < <(TASKS=$tasks FETCHSCHED="$work/timed-fetchsched" POLICIES=$policies FRONTIER=$frontier_env \
    deploy/slurm/submit.sh "$log" "$shards" "$work/$name-slurm")
  slurm_jobs+=("$array" "$merge")
  # Bounded: a day at most, then the jobs are cancelled.
  local deadline=$((SECONDS + 86400))
  while squeue -h -j "$array,$merge" -t PD,CF,R,CG,S 2>/dev/null | grep -q .; do
    ((SECONDS < deadline)) || { scancel "$array" "$merge"; echo "population: slurm jobs still running after a day" >&2; exit 1; }
    sleep 5
  done
  [[ -f "$work/$name-slurm/report.markdown" ]] || { tail -n 20 "$work/$name-slurm"/slurm-*.out >&2; exit 1; }
  cp "$work/$name-slurm/report.markdown" "$work/$name.md"
}

# unsharded NAME ARGS...: the same bench unsharded, on every core, its table compared with the merged one.
unsharded() {
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/$name-unsharded.time" \
    "$bin" bench "$log" "$@" "${by_user[@]}" --quiet --format markdown > "$work/$name-unsharded.md"
  read -r e u s kb < "$work/$name-unsharded.time"
  if cmp -s "$work/$name-unsharded.md" "$work/$name.md"; then
    echo "$name unsharded: wall $e s, CPU $(python3 -c "print(round($u + $s, 1))") s, peak $((kb / 1024)) MiB; the same bytes as the merged shards"
  else
    echo "$name unsharded: differs from the merged shards ($work/$name-unsharded.md, $work/$name.md)" >&2
    exit 1
  fi
}

if [[ "${REFERENCE:-1}" != 0 ]]; then run reference --policies "$reference"; fi
if [[ "$frontier" != 0 ]]; then run frontier --policies none --frontier "${sweep[@]}"; fi
if [[ "${UNSHARDED:-0}" == 1 ]]; then
  if [[ "${REFERENCE:-1}" != 0 ]]; then unsharded reference --policies "$reference"; fi
  if [[ "$frontier" != 0 ]]; then unsharded frontier --policies none --frontier "${sweep[@]}"; fi
fi
echo "merged tables:$([[ "${REFERENCE:-1}" != 0 ]] && echo " $work/reference.md")$([[ "$frontier" != 0 ]] && echo " $work/frontier.md")"
if [[ -n "${WORK:-}" && "${REFERENCE:-1}" != 0 ]]; then head -8 "$work/reference.md"; fi
