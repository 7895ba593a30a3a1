#!/usr/bin/env bash
# Instructions spent, counted by valgrind, on a generated log of 200 users × 7 days:
#   Benchmarks/plan-instructions.sh [plans]           plans of one user's app anew from their live
#                                                     state (next-from-live-state), inside planAnew
#   Benchmarks/plan-instructions.sh replay <policy>   a replay of the whole log under the policy
# From the repository root; needs valgrind.
set -euo pipefail
if [[ ${1:-} == replay ]]; then
    args=(replay "${2:?a policy, e.g. adaptive}"); inside='*replayAll*'; per=1; what="a replay of ${2}"
else
    args=(plan "${1:-200}"); inside='*planAnew*'; per=${1:-200}; what="planAnew"
fi
command -v valgrind > /dev/null || { echo "plan-instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
cd Benchmarks
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
swift build -c release --product PlanInstructions > "$out.log" 2>&1 || { cat "$out.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/PlanInstructions
valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$inside" "$bin" "${args[@]}" 2> "$out.log" \
    || { cat "$out.log" >&2; exit 1; }
grep -o 'Collected : [0-9]*' "$out.log" | awk -v n="$per" -v what="$what" '{ printf "instructions in %s: %d, %d each\n", what, $3, $3 / n }'
