#!/usr/bin/env bash
# Runs every command of the README's examples as written (scripts/run-readme.py), then checks
# what some of them print: the CSV output, the imports, exec: policies against the built-ins
# they copy, the prediction benchmark. With the given fetchsched binary, from the repository
# root. CI runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/readme-examples.sh path/to/fetchsched}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetchsched() { "$bin" "$@"; }

python3 scripts/run-readme.py "$bin" README.md

# bench --format csv --per user, read back with Python's csv module.
fetchsched bench data/sample.csv --policies none,fixed:60m,adaptive --format csv --per user > "$work/per-user.csv"
python3 -c "import csv, sys; rows = list(csv.DictReader(open(sys.argv[1]))); assert {r['policy'] for r in rows} == {'none', 'fixed:60m', 'adaptive'} and len(rows) == 24, rows[:1]; print('csv:', len(rows), 'rows')" "$work/per-user.csv"

# bench --per app: the README's table is what the command prints.
fetchsched bench data/sample.csv --policies ios,android,android-prefetch,adaptive --per app --apps com.example.news --format markdown > "$work/per-app.md"
python3 - "$work/per-app.md" <<'PY'
import sys
printed = open(sys.argv[1]).read().strip().splitlines()
readme = open("README.md").read().splitlines()
start = readme.index(printed[0])
assert readme[start:start + len(printed)] == printed, "README's per-app table differs from what bench --per app prints"
print("per app: README's table is bench's output")
PY

# import: the bundled fixtures, then a bench of the imported log.
fetchsched import --from usagestats --user ann --utc-offset +01:00 data/import/usagestats-dump.txt --out "$work/ann.csv"
fetchsched bench "$work/ann.csv" --policies none,fixed:60m,adaptive,oracle
fetchsched import --from aware data/import/aware/*.csv --out "$work/aware.csv"
fetchsched import --from knowledgec --user kim data/import/knowledgec/knowledgeC.db --out "$work/kim.csv"
grep -q '^2024-03-11T08:07:30.000+01:00,kim,com.atebits.Tweetie2,open,$' "$work/kim.csv"
fetchsched import --from wellbeing --user sam --time-zone Europe/Berlin data/import/wellbeing/app_usage --out "$work/sam.csv"
grep -q '^2024-10-27T07:00:41.000+01:00,sam,com.google.android.gm,open,$' "$work/sam.csv"
fetchsched bench "$work/aware.csv" --policies none,adaptive

# exec: the hourly example beside the built-in it copies; the rows must agree but for the name.
fetchsched bench data/sample.csv --policies "fixed:60m,exec:python3 examples/policies/hourly.py" --format csv > "$work/exec.csv"
python3 - "$work/exec.csv" <<'PY'
import csv, sys
a, b = list(csv.DictReader(open(sys.argv[1])))
a.pop("policy"); b.pop("policy")
assert a == b, "exec:hourly.py and fixed:60m differ"
print("exec: hourly.py gives fixed:60m's row")
PY

# predict: the prediction benchmark with its reliability chart; the counting baseline beside a
# counting policy written apart, through exec:.
fetchsched predict data/sample.csv --format markdown --report "$work/predict.html" > "$work/predict.md"
grep -q "^| learned | all |" "$work/predict.md" && grep -q "<svg" "$work/predict.html" && echo "predict: three models, a reliability chart"
fetchsched bench data/sample.csv --policies "counts:0.2,exec:python3 examples/policies/counting.py 0.2"
