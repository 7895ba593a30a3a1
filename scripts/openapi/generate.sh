#!/usr/bin/env bash
# Writes FetchClient's code (Sources/FetchClient/Generated) from the service's OpenAPI document
# with the pinned swift-openapi-generator. With --check, writes it aside and fails if the
# committed code differs: CI runs that, so the client never drifts from the document.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --package-path scripts/openapi --product swift-openapi-generator >&2
gen=$(swift build --package-path scripts/openapi --show-bin-path)/swift-openapi-generator
out=Sources/FetchClient/Generated
generate() {
  local log; log=$(mktemp)
  "$gen" generate Sources/FetchServer/openapi.json --config scripts/openapi/openapi-generator-config.yaml \
    --output-directory "$1" > "$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; exit 1; }
  rm -f "$log"
}
if [[ "${1:-}" == --check ]]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  generate "$tmp"
  if ! diff -r "$tmp" "$out"; then
    echo "Sources/FetchClient/Generated is not what openapi.json gives: run scripts/openapi/generate.sh" >&2
    exit 1
  fi
  echo "FetchClient's generated code is current"
else
  generate "$out"
fi
