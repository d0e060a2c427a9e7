#!/usr/bin/env bash
# What `plumbline mock --preset instant` serves per core: wrk drives one mock (one loop
# thread by default) with keep-alive POSTs, non-streaming then streaming (16 tokens, one
# SSE chunk per token plus usage and [DONE]); the mock's own CPU time (utime + stime from
# /proc, all its threads) over the load turns requests and chunks into per-core rates.
# With --perf, perf records the mock during the non-streaming load and prints where the
# time went (top symbols, children excluded). Usage:
#   bench/mock_capacity.sh [PLUMBLINE_BIN] [--threads N] [--connections C] [--duration S] [--perf]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
threads=1 connections=32 duration=5 perf=false
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --perf) perf=true; shift ;;
    *) echo "mock_capacity: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 60 ] || { echo "mock_capacity: --duration is capped at 60 s" >&2; exit 2; }
for tool in wrk jq curl; do command -v $tool >/dev/null || { echo "mock_capacity: $tool missing" >&2; exit 1; }; done

tmp="$(mktemp -d)"
"$bin" mock --listen 127.0.0.1:0 --preset instant --threads "$threads" >"$tmp/mock.out" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/mock.out" ] && break; sleep 0.1; done
url="$(head -1 "$tmp/mock.out")"
[[ "$url" == http://127.0.0.1:* ]] || { echo "mock_capacity: mock did not start" >&2; exit 1; }
tick="$(getconf CLK_TCK)"
cpu_s() { awk -v t="$tick" '{print ($14 + $15) / t}' "/proc/$pid/stat"; }
stat_of() { curl -s -m 2 "$url/mock/stats" | jq -r ".$1"; }

echo "mock_capacity: $url instant, mock threads=$threads, wrk -t1 -c$connections -d${duration}s, $(nproc) cores"
printf 'mode\treq/s\tmock_cpu_s\treq/s/core\tchunks/s/core\tus/req\n'
for mode in non-streaming streaming; do
  if [ "$mode" = streaming ]; then
    export MOCK_BODY='{"model":"mock","messages":[{"role":"user","content":"say something short please"}],"max_tokens":16,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}}'
  else
    unset MOCK_BODY
  fi
  c0="$(cpu_s)" r0="$(stat_of requests_completed)"
  if [ "$perf" = true ] && [ "$mode" = non-streaming ]; then
    perf record -q -p "$pid" -o "$tmp/perf.data" -- sleep "$duration" >/dev/null 2>&1 &
    perf_pid=$!
  fi
  rps="$(wrk -t1 -c"$connections" -d"${duration}s" --timeout 5s -s "$here/mock_post.lua" "$url" |
    awk '/Requests\/sec/ {print $2}')"
  [ "$perf" = true ] && [ "$mode" = non-streaming ] && wait "$perf_pid" || true
  c1="$(cpu_s)" r1="$(stat_of requests_completed)"
  awk -v m="$mode" -v rps="$rps" -v c="$(echo "$c1 - $c0" | bc -l)" -v n="$((r1 - r0))" \
    'BEGIN { chunks = (m == "streaming") ? 18 : 1;  # 16 tokens + usage + [DONE]
             printf "%s\t%.0f\t%.2f\t%.0f\t%.0f\t%.1f\n", m, rps, c, n / c, n * chunks / c, c * 1e6 / n }'
done
if [ "$perf" = true ] && [ -s "$tmp/perf.data" ]; then
  echo "mock_capacity: perf, non-streaming, self time by object"
  perf report -i "$tmp/perf.data" --sort dso --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -8
  echo "mock_capacity: perf, non-streaming, self time by symbol (top 20)"
  perf report -i "$tmp/perf.data" --sort dso,symbol --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -20
fi
