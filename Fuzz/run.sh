#!/usr/bin/env bash
# Builds the libFuzzer targets (every module compiled with SwiftPM's --sanitize=fuzzer and
# --sanitize=address) and runs
# each for SECONDS (default 12) from its seed corpus in Fuzz/corpus/<target>. A crash, an
# overflow trap, a leak-free hang past -timeout or an ASan report fails the run; the input
# that caused it is left in Fuzz/findings/.
#   Fuzz/run.sh [SECONDS] [TARGET ...]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-12}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(csv jsonl timestamp duration scenario request usagestats aware awaredump shard dumpdate
                                     knowledgec knowledgecdb wellbeingdb)

swift build -c release --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address >/tmp/fetch-fuzz-build.log 2>&1 \
  || { tail -40 /tmp/fetch-fuzz-build.log; exit 1; }
bin=$(swift build -c release --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address --show-bin-path)/fetch-fuzz
mkdir -p findings
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  cp -r "corpus/$t/." "$work/"
  echo "fuzz $t: ${seconds}s"
  FETCH_FUZZ_TARGET=$t "$bin" "$work" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix="findings/$t-" -print_final_stats=1 2>"/tmp/fetch-fuzz-$t.log" \
    || { tail -60 "/tmp/fetch-fuzz-$t.log"; echo "fuzz $t: FAILED (input in Fuzz/findings/)"; exit 1; }
  grep -E "stat::number_of_executed_units|cov:" "/tmp/fetch-fuzz-$t.log" | tail -2 | sed "s/^/  /"
  rm -rf "$work"
done
echo "fuzz: all targets ran clean"
