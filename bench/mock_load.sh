#!/usr/bin/env bash
# Scripted load run against `plumbline mock`: starts it on an ephemeral port with the
# instant preset, drives it with wrk (keep-alive, bounded duration), prints req/s and
# the mock's own counters, stops it. Usage:
#   bench/mock_load.sh [PLUMBLINE_BIN] [--threads N] [--connections C] [--duration S]
#                      [--wrk-threads T] [--stream]
# Measured on the 2-core dev VM (dev preset, mock --threads 2, 16-token non-streaming chat,
# other builds running alongside): 39k-60k req/s with wrk -t1 -c64, 43k-51k with -t2 -c128.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-$here/../build/release/app/plumbline}"
shift || true
threads=2 connections=64 duration=5 wrk_threads=1 stream=false
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --wrk-threads) wrk_threads="$2"; shift 2 ;;
    --stream) stream=true; shift ;;
    *) echo "mock_load: unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "mock_load: wrk missing (packaging/install-deps.sh installs it)" >&2; exit 1; }
[ "$duration" -le 60 ] || { echo "mock_load: --duration is capped at 60 s" >&2; exit 2; }

out="$(mktemp)"
"$bin" mock --listen 127.0.0.1:0 --preset instant --threads "$threads" >"$out" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
url="$(head -1 "$out")"
[[ "$url" == http://127.0.0.1:* ]] || { echo "mock_load: mock did not start" >&2; exit 1; }

if [ "$stream" = true ]; then
  export MOCK_BODY='{"model":"mock","messages":[{"role":"user","content":"say something short please"}],"max_tokens":16,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}}'
fi
echo "mock_load: $url mock threads=$threads wrk threads=$wrk_threads connections=$connections duration=${duration}s stream=$stream"
wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --timeout 5s -s "$here/mock_post.lua" "$url" | tee /dev/stderr |
  awk '/Requests\/sec/ {print "mock_load: req/s " $2}'
echo "mock_load: stats $(curl -s -m 2 "$url/mock/stats")"
