#!/usr/bin/env bash
# Scripted load runs against the simulated engine (`plumbline mock --preset gpu-8b`):
#   sweep        rate sweep: TTFT, inter-token latency and throughput against offered load
#   temperature  the same load at temperature 0 and 0.7 (speculative decoding accepts more at 0)
# Each run is `plumbline run --rate R --duration S --summary-json` against one mock process
# (a fresh one per run, so that no queue or cache carries over). Usage:
#   bench/sim_sweep.sh [sweep|temperature] [PLUMBLINE_BIN] [--rates "1 2 4 8"] [--duration S]
#                      [--preset NAME] [--input N] [--output N]
#
# Measured on the 2-core dev VM (dev build, other builds alongside), gpu-8b, 512 in / 256 out,
# Poisson arrivals; the model's ceiling at T=0.7 is ~19.7 req/s (batch of 256 reached):
#   sweep --rates "1 4 8 12 16 20 24" --duration 10: TTFT p50 31 -> 115 ms, ITL p50 7 -> 42 ms
#   sweep --rates "16 24 32" --duration 30: TTFT p50 62 / 665 / 5788 ms, p99 147 / 3817 / 14798 ms,
#     ITL p50 19 / 93 / 94 ms (saturated batch)
#   temperature --rates "4 24" --duration 30: e2e p50 at 4/s 766 ms (T=0) vs 1254 ms (T=0.7);
#     at 24/s TTFT p50 101 vs 778 ms, e2e p50 4.5 s vs 12.2 s
# out_tok/s is the summary's output_tokens_per_s: every completed request's tokens over the
# nominal duration, including requests that finished while the queue drained after it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mode="${1:-sweep}"
shift || true
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
rates="1 2 4 8 12 16 20 24" duration=10 preset=gpu-8b input=512 output=256
while [ $# -gt 0 ]; do
  case "$1" in
    --rates) rates="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --preset) preset="$2"; shift 2 ;;
    --input) input="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    *) echo "sim_sweep: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 60 ] || { echo "sim_sweep: --duration is capped at 60 s" >&2; exit 2; }
command -v jq >/dev/null || { echo "sim_sweep: jq missing" >&2; exit 1; }

tmp="$(mktemp -d)"
mock_pid=""
stop_mock() {
  if [ -n "$mock_pid" ]; then kill -TERM "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; fi
  mock_pid=""
}
trap 'stop_mock; rm -rf "$tmp"' EXIT

start_mock() {
  : >"$tmp/mock.out"  # truncated here: the mock's own open may come after the first check below
  "$bin" mock --listen 127.0.0.1:0 --preset "$preset" --threads 1 >>"$tmp/mock.out" &
  mock_pid=$!
  for _ in $(seq 50); do [ -s "$tmp/mock.out" ] && break; sleep 0.1; done
  url="$(head -1 "$tmp/mock.out")"
  [[ "$url" == http://127.0.0.1:* ]] || { echo "sim_sweep: mock did not start" >&2; exit 1; }
}

workload() {  # $1 = temperature
  cat >"$tmp/w.json" <<JSON
{"plumbline": 1, "name": "sim sweep", "verdict": {"send_lag_tolerance_ms": 30},
 "target": {"url": "embedded", "api": "chat", "model": "mock", "stream": true, "timeout_s": 120},
 "load": {"arrival": "poisson", "seed": 11, "stages": [{"rate": 1, "duration_s": 1}]},
 "requests": {"input_tokens": {"dist": "fixed", "value": $input},
              "output_tokens": {"dist": "fixed", "value": $output},
              "sampling": {"temperature": $1, "ignore_eos": true}}}
JSON
}

run_one() {  # $1 = rate, $2 = temperature; prints one table row
  workload "$2"
  start_mock
  "$bin" run "$tmp/w.json" --target "$url" --rate "$1" --duration "$duration" --workers 1 \
    --db "$tmp/runs.db" --summary-json "$tmp/s.json" --quiet >/dev/null 2>&1 || true
  local metrics
  metrics="$(curl -s -m 2 "$url/metrics")"
  stop_mock
  local preempt
  preempt="$(awk '/^vllm:num_preemptions_total/ {print $2}' <<<"$metrics")"
  jq -r --arg r "$1" --arg t "$2" --arg p "${preempt:-0}" \
    '[$r, $t, .achieved_rps, .completed, ([.errors[]] | add // 0), .ttft_ms.p50, .ttft_ms.p99, .itl_ms.p50,
      .itl_ms.p99, .e2e_ms.p50, .output_tokens_per_s, $p, .verdict]
     | map(if type == "number" then (. * 10 | round / 10) else . end) | @tsv' "$tmp/s.json"
}

echo "sim_sweep: $mode preset=$preset input=$input output=$output duration=${duration}s bin=$bin"
printf 'rate\ttemp\tach_rps\tdone\terrors\tttft_p50\tttft_p99\titl_p50\titl_p99\te2e_p50\tout_tok/s\tpreempt\tverdict\n'
case "$mode" in
  sweep) for r in $rates; do run_one "$r" 0.7; done ;;
  temperature) for r in $rates; do run_one "$r" 0; run_one "$r" 0.7; done ;;
  *) echo "sim_sweep: mode is sweep or temperature" >&2; exit 2 ;;
esac
