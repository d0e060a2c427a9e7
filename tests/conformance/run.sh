#!/usr/bin/env bash
# ctest driver: the openai SDK test against `plumbline mock` with each timing kind.
# Usage: run.sh PLUMBLINE_BIN
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$1"
out="$(mktemp)"
pid=""
trap '[ -n "$pid" ] && { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; rm -f "$out"' EXIT
for preset in instant default gpu-8b; do
  : >"$out"  # truncated here: the mock's own open may come after the first check below
  "$bin" mock --listen 127.0.0.1:0 --preset "$preset" --threads 1 >>"$out" &
  pid=$!
  for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
  url="$(head -1 "$out")"
  [[ "$url" == http://127.0.0.1:* ]] || { echo "conformance: mock did not start" >&2; exit 1; }
  echo "preset $preset:"
  timeout 60 node "$here/sdk_test.mjs" "$url"
  kill -TERM "$pid"
  wait "$pid" || true
  pid=""
done
