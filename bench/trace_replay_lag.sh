#!/usr/bin/env bash
# Send lag of a trace replay: a window of the Azure conversation trace replayed against the
# mock (instant preset), time-scaled, one worker. Prints the run's verdict, the summary's
# send-lag percentiles, and the same percentiles recomputed from every exported request
# (send_ns − planned_ns) and how many were over 1 ms. (That planned instants equal the scaled
# trace timestamps and lengths the trace's is checked per row by the integration test
# TraceReplayRun.) Usage:
#   bench/trace_replay_lag.sh [PLUMBLINE_BIN] [--window S] [--time-scale X] [--offset S] [--runs N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-$here/../build/release/app/plumbline}"
shift || true
window=300 scale=0.1 offset=0 runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --window) window="$2"; shift 2 ;;
    --time-scale) scale="$2"; shift 2 ;;
    --offset) offset="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "trace_replay_lag: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$runs" -le 10 ] || { echo "trace_replay_lag: --runs is capped at 10" >&2; exit 2; }

work="$(mktemp -d)"
"$bin" mock --listen 127.0.0.1:0 --preset instant --threads 1 >"$work/mock.out" &
mock=$!
trap 'kill -TERM $mock 2>/dev/null || true; wait $mock 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
url="$(head -1 "$work/mock.out")"

cat >"$work/w.json" <<JSON
{"plumbline": 1, "name": "trace replay lag probe",
 "target": {"url": "embedded", "api": "chat", "model": "mock", "stream": true},
 "load": {"arrival": "trace", "max_in_flight": 20000,
          "trace": {"file": "$here/../workloads/traces/azure_llm_2023_conv.csv", "format": "azure_csv",
                    "time_scale": $scale, "start_offset_s": $offset, "window_s": $window, "lengths": "trace"}},
 "requests": {"sampling": {"ignore_eos": true, "temperature": 0}}}
JSON
"$bin" plan "$work/w.json" | sed -n '/^arrivals/,/^$/p'
echo "mock: $url (instant, 1 thread); window $window trace s from $offset s, time_scale $scale"

for run in $(seq "$runs"); do
  code=0
  "$bin" run "$work/w.json" --target "$url" --db "$work/runs.db" --workers 1 --quiet \
    --summary-json "$work/s.json" || code=$?
  id="$("$bin" runs --db "$work/runs.db" list | awk 'NR>1 && $1 ~ /^[0-9]+$/ {id=$1} END {print id}')"
  "$bin" runs --db "$work/runs.db" export "$id" --format csv >"$work/r.csv"
  summary="$(tr -d '\n ' <"$work/s.json")"
  verdict="$(sed -n 's/.*"verdict":"\([a-z_]*\)".*/\1/p' <<<"$summary")"
  lag="$(sed -n 's/.*"send_lag_ms":{\([^}]*\)}.*/\1/p' <<<"$summary")"
  echo "run $run: exit $code verdict $verdict"
  echo "  summary send_lag_ms $lag"
  # Per-request lag from the export (columns found by header name), sorted, then percentiles.
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "planned_ns") p = i; if ($i == "send_ns") s = i }; next }
           { printf "%.6f\n", ($s - $p) / 1e6 }' "$work/r.csv" | sort -g | awk '
    { v[++n] = $1; if ($1 > 1.0) over++ }
    END {
      printf "  per-request send lag ms (%d requests): p50 %.3f p90 %.3f p99 %.3f max %.3f; over 1 ms: %d\n",
        n, v[int(n * 0.5) + 1], v[int(n * 0.9) + 1], v[int(n * 0.99) + 1], v[n], over + 0
    }'
done
