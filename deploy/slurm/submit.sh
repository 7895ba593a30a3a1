#!/usr/bin/env bash
# Submits a population benchmark to Slurm: an array of SHARDS tasks (bench-shards.sbatch), and
# a merge (merge.sbatch) that starts once all of them have succeeded. Prints the two job ids.
#
#   deploy/slurm/submit.sh LOG SHARDS OUT [sbatch options...]
#
# LOG is the population's log (a path every node can read), OUT a directory every node can
# write. Set FETCHSCHED (the binary), POLICIES, FRONTIER (1, or families to sweep), SEED and
# FORMAT in the environment to change their defaults; DB=… reads a store instead of LOG (give LOG as -). Further arguments go to
# both sbatch calls (--partition=…, --account=…, --time=…, --mem=…).
#
# TASKS=2,5 (tasks below SHARDS) runs those shards alone and the merge again: after a failed
# task, whose merge Slurm cancelled, the others' reports stay in OUT and are merged with the new.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log=${1:?usage: deploy/slurm/submit.sh LOG SHARDS OUT [sbatch options...]}
shards=${2:?SHARDS}
out=${3:?OUT}
shift 3
[[ "$shards" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "submit: SHARDS must be 1 to 9999, not '$shards'" >&2; exit 2; }
# sbatch reads % in a file name as a pattern (%j, %A), and a line break ends the name it is given.
for path in "$log" "$out"; do
  if [[ "$path" == *%* || "$path" =~ [[:cntrl:]] ]]; then
    echo "submit: '$path' has a % or a control character, which sbatch would read as its own: give another path" >&2
    exit 2
  fi
done
[[ -n "${DB:-}" || -r "$log" ]] || { echo "submit: cannot read the log '$log'" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
[[ -n "${DB:-}" ]] || log=$(cd "$(dirname "$log")" && pwd)/$(basename "$log")
bin=${FETCHSCHED:-$(command -v fetchsched || true)}
[[ -x "$bin" ]] || { echo "submit: no fetchsched binary: put it on PATH or set FETCHSCHED" >&2; exit 2; }
tasks=${TASKS:-0-$((shards - 1))}
if [[ -n "${TASKS:-}" ]]; then
  IFS=, read -ra listed <<< "$TASKS"
  for t in "${listed[@]}"; do
    [[ "$t" =~ ^[0-9]{1,4}$ ]] && ((10#$t < shards)) || { echo "submit: TASKS lists '$t', not a shard below $shards" >&2; exit 2; }
  done
fi
export FETCHSCHED=$bin LOG=$log OUT=$out SHARDS=$shards
array=$(sbatch --parsable --export=ALL --array="$tasks" --output="$out/slurm-%A_%a.out" "$@" "$here/bench-shards.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes --output="$out/slurm-%j.out" "$@" \
  "$here/merge.sbatch")
echo "${array} ${merge%%;*}"
