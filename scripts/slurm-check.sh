#!/usr/bin/env bash
# A population benchmark through deploy/slurm/ on a one-node Slurm cluster started for the
# purpose (scripts/slurm-cluster.sh), its merged report (and a frontier's) compared byte for byte with the
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
# The cluster's folder has a command substitution in its name: the printed export is evaled
# here as the README says, and must not run it. A folder slurm.conf cannot hold is refused.
cluster="$work/c\$(echo\${IFS}x)y"
trap 'scripts/slurm-cluster.sh stop "$cluster" || true; rm -rf "$work"' EXIT
if scripts/slurm-cluster.sh start "$work/a b" 2>/dev/null; then echo "slurm-check: a folder with a blank was taken" >&2; exit 1; fi
eval "$(scripts/slurm-cluster.sh start "$cluster")"
[[ "$SLURM_CONF" == "$cluster/slurm.conf" ]] || { echo "slurm-check: the export ran the folder's name: $SLURM_CONF" >&2; exit 1; }
"$bin" generate --users "$users" --days "$days" --seed 7 --out "$work/population.csv" 2>/dev/null
if FETCHSCHED=$bin deploy/slurm/submit.sh "$work/population.csv" 2 "$work/out%j" 2>/dev/null; then
  echo "slurm-check: an OUT with a % in it was taken" >&2; exit 1
fi
# Waits, at most 600 s, until neither job is pending, running or completing; then the report must be there.
wait_jobs() {
  local deadline=$((SECONDS + 600))
  while squeue -h -j "$1,$2" -t PD,CF,R,CG,S 2>/dev/null | grep -q .; do
    if ((SECONDS >= deadline)); then
      echo "slurm-check: the jobs are not done after 600 s" >&2
      squeue >&2; scancel "$1" "$2" || true
      exit 1
    fi
    sleep 1
  done
  if [[ ! -f "$work/out/report.markdown" ]]; then
    echo "slurm-check: no merged report; the jobs' output:" >&2
    tail -n 20 "$work"/out/slurm-*.out >&2 2>/dev/null || true
    tail -n 20 "$cluster/log/slurmctld.log" >&2 || true
    exit 1
  fi
}
read -r array merge < <(FETCHSCHED=$bin POLICIES=$policies SEED=3 deploy/slurm/submit.sh "$work/population.csv" "$shards" "$work/out")
wait_jobs "$array" "$merge"
"$bin" bench "$work/population.csv" --policies "$policies" --seed 3 --quiet --format markdown > "$work/unsharded.md"
if ! cmp "$work/unsharded.md" "$work/out/report.markdown"; then
  echo "slurm-check: the merged report differs from the unsharded run's" >&2
  diff "$work/unsharded.md" "$work/out/report.markdown" | head -20 >&2
  exit 1
fi
# The documented recovery from a failed task: that shard alone and the merge again (TASKS=i).
rm "$work/out/shard-1.json" "$work/out/report.markdown"
read -r again remerge < <(TASKS=1 FETCHSCHED=$bin POLICIES=$policies SEED=3 deploy/slurm/submit.sh "$work/population.csv" "$shards" "$work/out")
wait_jobs "$again" "$remerge"
cmp "$work/unsharded.md" "$work/out/report.markdown" || { echo "slurm-check: the recovered report differs" >&2; exit 1; }
# A frontier through the same path (FRONTIER=families sweeps those; a cheap family keeps the check short).
rm -rf "$work/out"
read -r farray fmerge < <(FRONTIER=fixed FETCHSCHED=$bin POLICIES=none SEED=3 deploy/slurm/submit.sh "$work/population.csv" "$shards" "$work/out")
wait_jobs "$farray" "$fmerge"
"$bin" bench "$work/population.csv" --policies none --frontier --sweep fixed --seed 3 --quiet --format markdown > "$work/frontier.md"
grep -q "fixed:15m" "$work/frontier.md" || { echo "slurm-check: the unsharded frontier has no fixed:15m" >&2; exit 1; }
cmp "$work/frontier.md" "$work/out/report.markdown" || { echo "slurm-check: the merged frontier differs from the unsharded one" >&2; exit 1; }
echo "slurm: $users users × $days days in $shards array tasks (job $array) and a dependent merge (job $merge): byte-identical to the unsharded run"
echo "slurm: shard 1 resubmitted alone (TASKS=1, job $again) and merged again (job $remerge): the same report"
echo "slurm: the frontier of fixed (FRONTIER=fixed, jobs $farray and $fmerge): byte-identical to the unsharded run"
