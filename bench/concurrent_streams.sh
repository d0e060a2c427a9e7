#!/usr/bin/env bash
# Issue 6, target 6: 20,000 streams open at once, without errors. Each process may hold at
# most `ulimit -Hn` descriptors (20,000 here), so neither side fits in one process: the mock
# runs as several processes sharing one port (--reuse-port) and the run spreads its
# connections over several workers (max_in_flight split between them). Sessions arrive at
# RATE/s for RAMP seconds and each streams TOKENS tokens ITL ms apart, so every one is still
# streaming when the last starts: peak concurrency = RATE × RAMP. Prints the verdict, errors,
# the peak of in-flight requests and of open connections (windows table), and each process's
# peak descriptor count. Usage:
#   bench/concurrent_streams.sh [PLUMBLINE_BIN] [--streams N] [--workers W] [--mocks M] [--ramp S]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
streams=20000 workers=2 mocks=2 ramp=10
while [ $# -gt 0 ]; do
  case "$1" in
    --streams) streams="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --mocks) mocks="$2"; shift 2 ;;
    --ramp) ramp="$2"; shift 2 ;;
    *) echo "concurrent_streams: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$streams" -le 40000 ] || { echo "concurrent_streams: --streams is capped at 40000" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "concurrent_streams: sqlite3 missing" >&2; exit 1; }
rate=$((streams / ramp))
itl_ms=1000 tokens=$((ramp + 8))  # each stream outlives the ramp by ~8 s

work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$bin" mock --listen 127.0.0.1:0 --reuse-port --threads 1 --ttft-ms 50 --itl-ms "$itl_ms" >"$work/mock0.out" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/mock0.out" ] && break; sleep 0.1; done
url="$(head -1 "$work/mock0.out")"
port="${url##*:}"
for i in $(seq 1 $((mocks - 1))); do
  "$bin" mock --listen "127.0.0.1:$port" --reuse-port --threads 1 --ttft-ms 50 --itl-ms "$itl_ms" >"$work/mock$i.out" &
  pids+=($!)
done
sleep 0.5

cat >"$work/w.json" <<JSON
{"plumbline": 1, "name": "concurrent streams",
 "target": {"url": "$url", "api": "chat", "model": "mock", "stream": true, "timeout_s": 120},
 "load": {"arrival": "constant", "seed": 1, "stages": [{"rate": $rate, "duration_s": $ramp}], "max_in_flight": $((streams + 1000))},
 "requests": {"input_tokens": {"dist": "fixed", "value": 16}, "output_tokens": {"dist": "fixed", "value": $tokens},
              "sampling": {"ignore_eos": true, "temperature": 0}},
 "verdict": {"send_lag_tolerance_ms": 5}}
JSON

peak_fds() {  # highest descriptor count seen per process, sampled every 0.5 s while the run goes
  local out="$1"; shift
  while kill -0 "$run_pid" 2>/dev/null; do
    for p in "${pids[@]}" $(pgrep -P "$run_pid" 2>/dev/null); do
      n=$(ls "/proc/$p/fd" 2>/dev/null | wc -l) && echo "$p $n"
    done
    sleep 0.5
  done | awk '{ if ($2 > m[$1]) m[$1] = $2 } END { for (p in m) print p, m[p] }' >"$out"
}

echo "concurrent_streams: $streams streams ($rate sessions/s for $ramp s, $tokens tokens $itl_ms ms apart)," \
     "$workers workers, $mocks mock processes on $url; fd limit $(ulimit -Hn); ports $(cat /proc/sys/net/ipv4/ip_local_port_range | tr '\t' '-')"
uptime
start=$(date +%s)
set +e
"$bin" run "$work/w.json" --db "$work/runs.db" --workers "$workers" --quiet --summary-json "$work/s.json" \
  2>"$work/run.err" &
run_pid=$!
peak_fds "$work/fds" &
sampler=$!
wait "$run_pid"; code=$?
wait "$sampler"
set -e
echo "exit $code after $(( $(date +%s) - start )) s"
jq -c '{verdict, verdict_reasons, planned, sent, completed, not_sent, errors, ttft_ms: .ttft_ms.p99, itl_p99_ms: .itl_ms.p99}' "$work/s.json"
sqlite3 "$work/runs.db" "SELECT 'peak in flight ' || max(in_flight) || ', peak connections open ' || max(connections_open) FROM windows"
echo "peak descriptors per process (pid count):"; sort -k2 -n -r "$work/fds" | head -8
uptime
