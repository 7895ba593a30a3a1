#!/usr/bin/env bash
# Instructions spent planning anew: 200 plans of one generated user's app from their live state
# (the Benchmarks package's next-from-live-state), counted by valgrind inside planAnew alone.
# Usage: Benchmarks/plan-instructions.sh [plans]   (from the repository root; needs valgrind)
set -euo pipefail
plans=${1:-200}
command -v valgrind > /dev/null || { echo "plan-instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
cd Benchmarks
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
swift build -c release --product PlanInstructions > "$out.log" 2>&1 || { cat "$out.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/PlanInstructions
valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='*planAnew*' "$bin" "$plans" 2> "$out.log" || { cat "$out.log" >&2; exit 1; }
grep -o 'Collected : [0-9]*' "$out.log" | awk -v n="$plans" '{ printf "instructions in planAnew: %d, %d a plan\n", $3, $3 / n }'
