#!/usr/bin/env bash
# Issue 6, target 4: 32k-token prompts (~128 KB request bodies) at 100 sessions/s are kept
# up, and the upload (request body, first byte to last byte written) is reported apart from
# TTFT. Runs the same load with 64-token prompts beside it, so the upload line can be read
# against a body that fits in one write. Usage:
#   bench/long_prompts.sh [PLUMBLINE_BIN] [--rate R] [--duration S] [--workers W] [--tokens N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
rate=100 duration=10 workers=2 tokens=32768
while [ $# -gt 0 ]; do
  case "$1" in
    --rate) rate="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --tokens) tokens="$2"; shift 2 ;;
    *) echo "long_prompts: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 60 ] || { echo "long_prompts: --duration is capped at 60 s" >&2; exit 2; }
work="$(mktemp -d)"
trap 'stop_mocks; rm -rf "$work"' EXIT
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"
start_mock recorder --listen 127.0.0.1:0 --threads 1 --ttft-ms 0 --itl-ms 0 --record-requests "$work/requests.jsonl"
recorder_url="$mock_url"
start_mock mock --listen 127.0.0.1:0 --threads 1 --ttft-ms 20 --itl-ms 5

workload() {  # $1 = prompt tokens
  cat >"$work/w.json" <<JSON
{"plumbline": 1, "name": "long prompts $1",
 "target": {"url": "$mock_url", "api": "chat", "model": "mock", "stream": true},
 "load": {"arrival": "poisson", "seed": 3, "stages": [{"rate": $rate, "duration_s": $duration}]},
 "requests": {"input_tokens": {"dist": "fixed", "value": $1}, "output_tokens": {"dist": "fixed", "value": 16},
              "sampling": {"ignore_eos": true, "temperature": 0}}}
JSON
}

echo "long_prompts: $rate sessions/s for $duration s, $workers workers, mock $mock_url (ttft 20 ms, itl 5 ms)"
uptime
printf 'prompt\tbody_kB\tverdict\tsent/planned\terrors\tupload_p50_ms\tupload_p99_ms\tupload_max_ms\tttft_p50_ms\tttft_p99_ms\tsend_lag_p99_ms\n'
for t in 64 "$tokens"; do
  workload "$t"
  # One request to the recording mock, for the size of the body as sent.
  "$bin" run "$work/w.json" --target "$recorder_url" --db "$work/size.db" --workers 1 --rate 1 --duration 1 --quiet \
    2>/dev/null || true
  body_kb=$(tail -1 "$work/requests.jsonl" | jq -c '.body' | wc -c | awk '{printf "%.1f", $1 / 1024}')
  set +e
  "$bin" run "$work/w.json" --db "$work/runs.db" --workers "$workers" --quiet --summary-json "$work/s.json" 2>"$work/run.err"
  set -e
  jq -r --arg t "$t" --arg kb "$body_kb" '[$t, $kb, .verdict, "\(.sent)/\(.planned)", ([.errors[]] | add // 0),
      .upload_ms.p50, .upload_ms.p99, .upload_ms.max, .ttft_ms.p50, .ttft_ms.p99, .send_lag_ms.p99] | @tsv' "$work/s.json"
  jq -r '.verdict_reasons[] | "  reason: " + .' "$work/s.json"
done
uptime
