#!/usr/bin/env bash
# Fault agreement: `plumbline mock` injects every fault class at one seeded rate, `plumbline
# run` drives it, and the table sets the mock's count of each class (/mock/stats "faults")
# against the harness's count of the error class it maps to (summary "errors"):
#   http_500, http_503 -> http_5xx        http_429 -> rate_limited (Retry-After sent; the
#   refuse (TCP reset) -> no_reply          harness is open loop and does not back off)
#   stall_first_byte, stall_mid_stream -> timeout (stall_ms 2500 > timeout_s 1)
#   stream_cut -> stream_cut (non-streaming: body shorter than its Content-Length)
#   malformed_chunk -> malformed_stream (non-streaming: broken JSON body)
#   slow_trickle -> no error (completes slowly; trickle_itl_ms 20)
# Usage: bench/fault_agreement.sh [PLUMBLINE_BIN] [--rate R] [--duration S] [--fault-rate F]
#                                 [--seed N] [--non-streaming]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
rate=40 duration=5 fault_rate=0.04 seed=3 stream=true
while [ $# -gt 0 ]; do
  case "$1" in
    --rate) rate="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --fault-rate) fault_rate="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --non-streaming) stream=false; shift ;;
    *) echo "fault_agreement: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 60 ] || { echo "fault_agreement: --duration is capped at 60 s" >&2; exit 2; }
command -v jq >/dev/null || { echo "fault_agreement: jq missing" >&2; exit 1; }

tmp="$(mktemp -d)"
mock_pid=""
trap '[ -n "$mock_pid" ] && kill -TERM "$mock_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT

classes="http_500 http_503 http_429 refuse stall_first_byte stall_mid_stream stream_cut malformed_chunk slow_trickle"
jq -n --argjson f "$fault_rate" --argjson s "$seed" --arg c "$classes" \
  '{preset: "gpu-8b", threads: 1, fault_seed: $s, stall_ms: 2500, trickle_itl_ms: 20,
    faults: ($c | split(" ") | map({(.): $f}) | add)}' >"$tmp/mock.json"
cat >"$tmp/w.json" <<JSON
{"plumbline": 1, "name": "fault agreement", "verdict": {"send_lag_tolerance_ms": 30},
 "target": {"url": "embedded", "api": "chat", "model": "mock", "stream": $stream, "timeout_s": 1},
 "load": {"arrival": "constant", "seed": $seed, "stages": [{"rate": 1, "duration_s": 1}]},
 "requests": {"input_tokens": {"dist": "fixed", "value": 32}, "output_tokens": {"dist": "fixed", "value": 16},
              "sampling": {"temperature": 0, "ignore_eos": true}}}
JSON

: >"$tmp/mock.out"
"$bin" mock --listen 127.0.0.1:0 --config "$tmp/mock.json" >>"$tmp/mock.out" &
mock_pid=$!
for _ in $(seq 50); do [ -s "$tmp/mock.out" ] && break; sleep 0.1; done
url="$(head -1 "$tmp/mock.out")"
[[ "$url" == http://127.0.0.1:* ]] || { echo "fault_agreement: mock did not start" >&2; exit 1; }
"$bin" run "$tmp/w.json" --target "$url" --rate "$rate" --duration "$duration" --workers 1 \
  --db "$tmp/runs.db" --summary-json "$tmp/s.json" --quiet >/dev/null 2>&1 || true
kill -TERM "$mock_pid"; wait "$mock_pid" || true; mock_pid=""
tail -1 "$tmp/mock.out" >"$tmp/stats.json"  # the mock's final counts, printed on SIGTERM

echo "fault_agreement: stream=$stream rate=$rate/s duration=${duration}s fault_rate=$fault_rate seed=$seed"
jq -r --slurpfile s "$tmp/s.json" '
  . as $m | $s[0] as $r |
  def mock($c): $m.faults[$c] // 0;
  def harness($c): $r.errors[$c] // 0;
  [["http_500+http_503", "http_5xx", mock("http_500") + mock("http_503"), harness("http_5xx")],
   ["http_429", "rate_limited", mock("http_429"), harness("rate_limited")],
   ["refuse", "no_reply", mock("refuse"), harness("no_reply")],
   ["stall_first_byte+stall_mid_stream", "timeout", mock("stall_first_byte") + mock("stall_mid_stream"), harness("timeout")],
   ["stream_cut", "stream_cut", mock("stream_cut"), harness("stream_cut")],
   ["malformed_chunk", "malformed_stream", mock("malformed_chunk"), harness("malformed_stream")]]
  | (["mock_fault", "harness_class", "mock", "harness", "agree"] | @tsv),
    (.[] | . + [(if .[2] == .[3] then "yes" else "NO" end)] | @tsv),
    (["slow_trickle", "(completed)", mock("slow_trickle"), "-", "-"] | @tsv),
    (["received/sent", "", $m.requests_received, $r.sent, (if $m.requests_received == $r.sent then "yes" else "NO" end)] | @tsv),
    (["planned = completed + errors + not_sent", "", $r.planned, ($r.completed + ([$r.errors[]] | add // 0) + ($r.not_sent // 0)), ""] | @tsv)
' "$tmp/stats.json" | column -t -s $'\t'
