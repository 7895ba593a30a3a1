#!/usr/bin/env bash
# The example package examples/CustomPolicy, built outside this repository's build against
# FetchScheduler by version: a clone of the committed HEAD, tagged 0.1.0, as a dependent package
# would fetch a release. It replays data/sample.csv through the public API and prints the table.
# Usage: scripts/dependent-example.sh [out.txt]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/dev/stdout}
work=$(mktemp -d /tmp/fetchsched-dependent.XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/FetchScheduler"
git -C "$work/FetchScheduler" tag 0.1.0 2>/dev/null || true
cp -R "$root/examples/CustomPolicy" "$work/CustomPolicy"
rm -rf "$work/CustomPolicy/.build"
cd "$work/CustomPolicy"
FETCHSCHEDULER_URL="file://$work/FetchScheduler" swift build -c release 2>&1 | tail -n 3 >&2
FETCHSCHEDULER_URL="file://$work/FetchScheduler" swift run -c release --skip-build CustomPolicy "$root/data/sample.csv" > "$out"
