#!/usr/bin/env bash
# A population benchmark through deploy/slurm/ on a one-node Slurm cluster started for the
# purpose (scripts/slurm-cluster.sh), its merged report compared byte for byte with the
# unsharded run's; the cluster is stopped whatever happens. CI runs it.
#
#   scripts/slurm-check.sh path/to/fetchsched [USERS DAYS SHARDS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "$(dirname "${1:?usage: scripts/slurm-check.sh path/to/fetchsched [USERS DAYS SHARDS]}")" && pwd)/$(basename "$1")
users=${2:-40} days=${3:-7} shards=${4:-3}
policies=none,fixed:60m,adaptive,oracle
work=$(mktemp -d)
chmod 755 "$work"
trap 'scripts/slurm-cluster.sh stop "$work/cluster" || true; rm -rf "$work"' EXIT
eval "$(scripts/slurm-cluster.sh start "$work/cluster")"
"$bin" generate --users "$users" --days "$days" --seed 7 --out "$work/population.csv" 2>/dev/null
read -r array merge < <(FETCHSCHED=$bin POLICIES=$policies SEED=3 deploy/slurm/submit.sh "$work/population.csv" "$shards" "$work/out")
# Waits, at most 600 s, until neither job is pending, running or completing.
deadline=$((SECONDS + 600))
while squeue -h -j "$array,$merge" -t PD,CF,R,CG,S 2>/dev/null | grep -q .; do
  if ((SECONDS >= deadline)); then
    echo "slurm-check: the jobs are not done after 600 s" >&2
    squeue >&2; scancel "$array" "$merge" || true
    exit 1
  fi
  sleep 1
done
if [[ ! -f "$work/out/report.markdown" ]]; then
  echo "slurm-check: no merged report; the jobs' output:" >&2
  tail -n 20 "$work"/out/slurm-*.out >&2 2>/dev/null || true
  tail -n 20 "$work/cluster/log/slurmctld.log" >&2 || true
  exit 1
fi
"$bin" bench "$work/population.csv" --policies "$policies" --seed 3 --quiet --format markdown > "$work/unsharded.md"
if ! cmp "$work/unsharded.md" "$work/out/report.markdown"; then
  echo "slurm-check: the merged report differs from the unsharded run's" >&2
  diff "$work/unsharded.md" "$work/out/report.markdown" | head -20 >&2
  exit 1
fi
echo "slurm: $users users × $days days in $shards array tasks (job $array) and a dependent merge (job $merge): byte-identical to the unsharded run"
