#!/usr/bin/env bash
# The highest request rate `plumbline run` holds with verdict kept_up against the mock
# (instant preset), for 1 and 2 workers, streaming 16 tokens and non-streaming. Each rate is
# a bounded 5-second run on loopback; a rate counts as held if one of two tries is kept_up
# (a single host pause of the VM can spoil one window; see machine_pauses_probe). The ladder
# stops after two consecutive rates that were not held. Usage:
#   bench/max_rate.sh [PLUMBLINE_BIN] [--duration S] [--tolerance-ms MS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-$here/../build/release/app/plumbline}"
shift || true
duration=5 tolerance=1
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --tolerance-ms) tolerance="$2"; shift 2 ;;
    *) echo "max_rate: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 30 ] || { echo "max_rate: --duration is capped at 30 s" >&2; exit 2; }

work="$(mktemp -d)"
"$bin" mock --listen 127.0.0.1:0 --preset instant --threads 2 >"$work/mock.out" &
mock=$!
trap 'kill -TERM $mock 2>/dev/null || true; wait $mock 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
url="$(head -1 "$work/mock.out")"

workload() {  # $1 = stream true|false, $2 = output tokens
  cat >"$work/w.json" <<JSON
{"plumbline": 1, "name": "max rate probe",
 "target": {"url": "embedded", "api": "chat", "model": "mock", "stream": $1},
 "load": {"arrival": "constant", "seed": 1, "stages": [{"rate": 100, "duration_s": 1}], "max_in_flight": 20000},
 "requests": {"input_tokens": {"dist": "fixed", "value": 64}, "output_tokens": {"dist": "fixed", "value": $2},
              "sampling": {"ignore_eos": true, "temperature": 0}},
 "verdict": {"send_lag_tolerance_ms": $tolerance}}
JSON
}

held() {  # $1 = workers, $2 = rate; prints the achieved rate of the better try
  local best=""
  for try in 1 2; do
    if "$bin" run "$work/w.json" --target "$url" --db "$work/runs.db" --workers "$1" --rate "$2" \
         --duration "$duration" --quiet --summary-json "$work/s.json" 2>/dev/null; then
      best=ok; break
    fi
  done
  [ -n "$best" ]
}

echo "mock: $url (instant, 2 threads); $duration s per try; tolerance $tolerance ms"
for mode in "stream16 true 16" "nonstream false 1"; do
  set -- $mode
  workload "$2" "$3"
  for workers in 1 2; do
    highest=0 misses=0
    for rate in 1000 2000 3000 5000 7500 10000 12500 15000 17500 20000 25000 30000 40000; do
      if held "$workers" "$rate"; then highest=$rate; misses=0; else misses=$((misses + 1)); fi
      [ $misses -ge 2 ] && break
    done
    echo "$1 workers=$workers highest kept_up rate: $highest rps"
  done
done
