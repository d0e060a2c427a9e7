#!/usr/bin/env bash
# Issue 6, target 6: 20,000 streams open at once, without errors. Each process may hold at
# most `ulimit -Hn` descriptors (20,000 here), so neither side fits in one process: the mock
# runs as several processes sharing one port (--reuse-port) and the run spreads its
# connections over several workers (max_in_flight split between them). Sessions arrive at
# RATE/s for RAMP seconds and each streams TOKENS tokens ITL ms apart, so every one is still
# streaming when the last starts: peak concurrency = RATE × RAMP. Prints the verdict, errors,
# send lag, the peak of in-flight requests and of open connections (windows table), and for
# every process (coordinator, workers, mocks) its CPU time, its share of one core and its
# peak descriptor count: the evidence of which process ran short of what.
# Bounded: the run is interrupted (SIGINT, then SIGKILL) if it outlives the plan by 60 s, and
# every process the script starts is stopped by its PID on exit. Usage:
#   bench/concurrent_streams.sh [PLUMBLINE_BIN] [--streams N] [--workers W] [--mocks M] [--ramp S]
# Defaults: 20,000 streams over 40 s (500/s), 4 workers, 4 mocks. libcurl 7.88 walks every
# connection a worker holds each time a transfer finishes, so connections per worker, not
# only per process descriptor limits, decide how many workers (docs/engine_figures.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
streams=20000 workers=4 mocks=4 ramp=40
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
[ "$ramp" -ge 1 ] && [ "$ramp" -le 60 ] || { echo "concurrent_streams: --ramp must be 1..60 s" >&2; exit 2; }
[ "$mocks" -ge 1 ] && [ "$mocks" -le 8 ] || { echo "concurrent_streams: --mocks must be 1..8" >&2; exit 2; }
[ $((streams % ramp)) -eq 0 ] || { echo "concurrent_streams: --streams must be a multiple of --ramp (whole sessions/s)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "concurrent_streams: sqlite3 missing" >&2; exit 1; }
rate=$((streams / ramp))
itl_ms=1000 tokens=$((ramp + 8))  # each stream outlives the ramp by ~8 s
limit_s=$((ramp + tokens + 60))   # the plan, the last stream, and a minute of grace

work="$(mktemp -d)"
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"
# shellcheck source=bench/proc_sampler.sh
source "$here/proc_sampler.sh"
run_pid="" sampler="" watchdog=""
cleanup() {
  for p in $watchdog $sampler $run_pid; do kill -TERM "$p" 2>/dev/null || true; done
  for p in $watchdog $sampler $run_pid; do wait "$p" 2>/dev/null || true; done
  stop_mocks
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_mock mock0 --listen 127.0.0.1:0 --reuse-port --threads 1 --ttft-ms 50 --itl-ms "$itl_ms"
url="$mock_url"
for i in $(seq 1 $((mocks - 1))); do
  start_mock "mock$i" --listen "${url#http://}" --reuse-port --threads 1 --ttft-ms 50 --itl-ms "$itl_ms"
done
mock_labels=(); for i in "${!mock_pids[@]}"; do mock_labels+=("mock$i=${mock_pids[$i]}"); done

cat >"$work/w.json" <<JSON
{"plumbline": 1, "name": "concurrent streams",
 "target": {"url": "$url", "api": "chat", "model": "mock", "stream": true, "timeout_s": 120},
 "load": {"arrival": "constant", "seed": 1, "stages": [{"rate": $rate, "duration_s": $ramp}], "max_in_flight": $((streams + 1000))},
 "requests": {"input_tokens": {"dist": "fixed", "value": 16}, "output_tokens": {"dist": "fixed", "value": $tokens},
              "sampling": {"ignore_eos": true, "temperature": 0}},
 "verdict": {"send_lag_tolerance_ms": 5}}
JSON

echo "concurrent_streams: $streams streams ($rate sessions/s for $ramp s, $tokens tokens $itl_ms ms apart)," \
     "$workers workers, $mocks mock processes on $url; fd limit $(ulimit -Hn); ports $(tr '\t' '-' </proc/sys/net/ipv4/ip_local_port_range); $(nproc) cores"
echo "start: $(uptime)"
start=$(date +%s.%N)
set +e
"$bin" run "$work/w.json" --db "$work/runs.db" --workers "$workers" --quiet --summary-json "$work/s.json" \
  2>"$work/run.err" &
run_pid=$!
sample_procs "$work/procs" "$run_pid" "${mock_labels[@]}" &
sampler=$!
( for ((i = 0; i < limit_s; ++i)); do kill -0 "$run_pid" 2>/dev/null || exit 0; sleep 1; done
  echo "concurrent_streams: the run outlived ${limit_s} s: interrupting it (SIGINT)" >&2
  kill -INT "$run_pid" 2>/dev/null
  for ((i = 0; i < 20; ++i)); do kill -0 "$run_pid" 2>/dev/null || exit 0; sleep 1; done
  echo "concurrent_streams: still running: second SIGINT (abandon requests in flight)" >&2
  kill -INT "$run_pid" 2>/dev/null
  for ((i = 0; i < 20; ++i)); do kill -0 "$run_pid" 2>/dev/null || exit 0; sleep 1; done
  echo "concurrent_streams: still running: SIGKILL" >&2
  kill -KILL "$run_pid" 2>/dev/null ) &
watchdog=$!
wait "$run_pid"; code=$?
run_pid=""
wait "$sampler"; sampler=""
wait "$watchdog"; watchdog=""  # it sees the run gone within a second
set -e
wall=$(echo "$(date +%s.%N) - $start" | bc -l)
echo "end:   $(uptime)"
printf 'exit %s after %.1f s\n' "$code" "$wall"
if [ -s "$work/s.json" ]; then jq -c '{verdict, verdict_reasons, planned, sent, completed, not_sent, errors,
        send_lag_p99_ms: .send_lag_ms.p99, ttft_p99_ms: .ttft_ms.p99, itl_p99_ms: .itl_ms.p99}' "$work/s.json"
else echo "no summary; the run said:"; tail -5 "$work/run.err"; fi
sqlite3 "$work/runs.db" "SELECT 'peak in flight ' || max(in_flight) || ', peak connections open ' || max(connections_open) FROM windows"
echo "per second while sessions arrive (windows table; worker_cpu excludes the send spin-wait):"
sqlite3 -header -separator $'\t' "$work/runs.db" "SELECT idx AS s, planned, sent, in_flight, connections_open AS conns,
  round(send_lag_p99_ms, 1) AS lag_p99_ms, round(worker_cpu_max, 2) AS worker_cpu_max,
  round(loop_delay_max_ms, 1) AS loop_delay_max_ms FROM windows WHERE idx <= $ramp + 1 ORDER BY idx"
print_procs "$work/procs" "$wall"
sent=$(jq -r '.sent // 0' "$work/s.json" 2>/dev/null || echo 0)
# The workers' own accounting of their busy time, which leaves out the spin-wait before each
# planned send (getrusage and /proc count that spin as CPU).
busy=$(sqlite3 "$work/runs.db" "SELECT coalesce(sum(worker_cpu_mean * length_ns), 0) / 1e9 * $workers FROM windows")
echo "workers busy (their own accounting, spin-wait excluded): $(printf '%.2f' "$busy") s"
awk -v hz="$(getconf CLK_TCK)" -v n="$sent" '
  { if ($1 ~ /^mock/) m += $3; else p += $3 }
  END { if (n > 0) printf "CPU per stream sent (%d streams, %d chunks each): plumbline %.0f us, mocks %.0f us\n",
                           n, '"$tokens"' + 2, 1e6 * p / hz / n, 1e6 * m / hz / n }' "$work/procs"
[ "$sent" -gt 0 ] && awk -v b="$busy" -v n="$sent" 'BEGIN { printf "workers busy per stream: %.0f us\n", 1e6 * b / n }'
exit 0
