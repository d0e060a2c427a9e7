#!/usr/bin/env bash
# Send punctuality of a streaming run: one worker, the mock pacing 64 tokens 5 ms apart (one
# loop thread), RATE streams/s for S seconds, REPS runs. Per run: the verdict, the run-wide send
# lag p99, and how many sends were more than 0.2 / 0.5 / 1 ms late (from the run's own
# `requests` table). With --against OTHER_BIN, the two builds alternate run by run against the
# same mock, so that an A/B of two builds shares the machine's state (docs/engine_figures.md,
# session 12: sends between reads). Usage:
#   bench/streaming_send_lag.sh [PLUMBLINE_BIN] [--rate R] [--duration S] [--reps N] [--against BIN]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
rate=1000 duration=5 reps=5 against=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rate) rate="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --against) against="$2"; shift 2 ;;
    *) echo "streaming_send_lag: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 30 ] && [ "$reps" -le 20 ] || { echo "streaming_send_lag: --duration <= 30, --reps <= 20" >&2; exit 2; }
for tool in sqlite3 jq; do command -v $tool >/dev/null || { echo "streaming_send_lag: $tool missing" >&2; exit 1; }; done
for b in "$bin" ${against:+"$against"}; do
  [ -x "$b" ] || { echo "streaming_send_lag: no plumbline binary at $b" >&2; exit 1; }
done
work="$(mktemp -d)"
trap 'stop_mocks; rm -rf "$work"' EXIT
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"
start_mock paced --listen 127.0.0.1:0 --threads 1 --ttft-ms 5 --itl-ms 5
write_probe_workload "$work/w.json" "streaming send lag" true 64
echo "streaming_send_lag: $rate streams/s for $duration s, 1 worker, mock 64 tokens 5 ms apart, $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'build\trun\tverdict\tsend_lag_p99_ms\tlate>0.2ms\tlate>0.5ms\tlate>1ms\tsent\n'
for rep in $(seq "$reps"); do
  for b in "$bin" ${against:+"$against"}; do
    rm -f "$work"/r.db* "$work/s.json"
    "$b" run "$work/w.json" --target "$mock_url" --db "$work/r.db" --workers 1 --rate "$rate" \
      --duration "$duration" --quiet --summary-json "$work/s.json" || true  # exit 3 is a verdict
    [ -s "$work/s.json" ] || { echo "streaming_send_lag: $b wrote no summary" >&2; exit 1; }
    late="$(sqlite3 -separator $'\t' "$work/r.db" "SELECT sum(send_ns - planned_ns > 200000),
             sum(send_ns - planned_ns > 500000), sum(send_ns - planned_ns > 1000000), count(*)
             FROM requests WHERE send_ns IS NOT NULL")"
    printf '%s\t%d\t%s\t%s\t%s\n' "$b" "$rep" "$(jq -r .verdict "$work/s.json")" \
      "$(jq -r .send_lag_ms.p99 "$work/s.json")" "$late"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
