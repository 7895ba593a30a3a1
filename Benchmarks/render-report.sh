#!/usr/bin/env bash
# Renders a bench report in headless Chromium and checks that it renders: a screenshot of
# reasonable size and a DOM with the report's charts. Usage: Benchmarks/render-report.sh BIN OUTDIR
set -euo pipefail
bin=$1; out=$2
mkdir -p "$out"
"$bin" bench data/sample.csv --policies none,fixed:15m,fixed:60m,ios,android,adaptive,oracle \
  --report "$out/report.html" > /dev/null
browser=$(command -v chromium || command -v chromium-browser)
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1050,2600)
"$browser" "${flags[@]}" --screenshot="$out/report.png" "file://$(realpath "$out/report.html")" 2>/dev/null
"$browser" "${flags[@]}" --dump-dom "file://$(realpath "$out/report.html")" 2>/dev/null > "$out/dom.html"
size=$(stat -c %s "$out/report.png")
svgs=$(grep -o "<svg" "$out/dom.html" | wc -l)
echo "report rendered: screenshot $size bytes, $svgs charts in the DOM"
[ "$size" -gt 50000 ] && [ "$svgs" -eq 4 ]
