#!/usr/bin/env bash
# The worker's spin before each planned send, fixed vs adaptive, in one benchmark run.
# Each rate is run 2 × REPS times against one `plumbline mock --preset instant` (started
# outside the probe, so its CPU is not counted), alternating the fixed margin
# (PLUMBLINE_SPIN_MARGIN_US, default 200 µs: the old kSpinNs) and the adaptive one in ABBA
# order, so that a machine whose load drifts treats both alike. Per run: client CPU per
# request (getrusage of `plumbline run` and every worker it reaped: bench/rusage_probe; whole
# run, start-up and database included), send lag p50/p99 from the run's own summary
# (measured from the planned instant), the verdict, and the load average when it ended.
# --nice N runs the measured runs at that niceness (negative needs root): on a machine
# shared with builds it gives the run's processes a CPU when they wake, which is what an
# otherwise idle machine would; say so next to any figure taken with it.
# Usage: bench/spin_margin.sh [PLUMBLINE_BIN] [--rates "1000 5000"] [--duration S]
#                             [--reps N] [--fixed-us US] [--workers N] [--nice N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
probe="$here/../build/release/bench/rusage_probe"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
rates="1000 5000" duration=5 reps=2 fixed_us=200 workers=1 niceness=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rates) rates="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --fixed-us) fixed_us="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --nice) niceness="$2"; shift 2 ;;
    *) echo "spin_margin: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -ge 1 ] && [ "$duration" -le 60 ] && [ "$reps" -ge 1 ] && [ "$reps" -le 10 ] ||
  { echo "spin_margin: need 1 <= --duration <= 60 and 1 <= --reps <= 10" >&2; exit 2; }
[ -x "$bin" ] || { echo "spin_margin: no plumbline binary at $bin" >&2; exit 1; }
[ -x "$probe" ] || probe="$(dirname "$bin")/../bench/rusage_probe"
[ -x "$probe" ] || { echo "spin_margin: rusage_probe not built (cmake --build --preset release --target rusage_probe)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "spin_margin: python3 missing" >&2; exit 1; }

work="$(mktemp -d)"
trap 'stop_mocks; rm -rf "$work"' EXIT
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"
start_mock instant --listen 127.0.0.1:0 --threads 1 --preset instant
write_probe_workload "$work/w.json" "spin margin probe" false 1

# One run; appends "mode rate cpu_us_per_req lag_p50_us lag_p99_us verdict sent load" to $work/rows.
one_run() {  # $1 = mode (fixed|adaptive), $2 = rate
  local cpu
  rm -f "$work/r.db" "$work/r.db-wal" "$work/r.db-shm" "$work/s.json"
  if [ "$1" = fixed ]; then export PLUMBLINE_SPIN_MARGIN_US="$fixed_us"; else unset PLUMBLINE_SPIN_MARGIN_US; fi
  cpu="$(nice -n "$niceness" "$probe" --quiet "$bin" run "$work/w.json" --target "$mock_url" --db "$work/r.db" --workers "$workers" \
          --rate "$2" --duration "$duration" --quiet --summary-json "$work/s.json" | awk '{printf "%.6f", $1 + $2}')"
  unset PLUMBLINE_SPIN_MARGIN_US
  [ -s "$work/s.json" ] || { echo "spin_margin: the run wrote no summary" >&2; exit 1; }
  python3 - "$work/s.json" "$1" "$2" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)" >>"$work/rows" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); lag = s["send_lag_ms"]; sent = max(1, s["sent"])
print(sys.argv[2], sys.argv[3], f"{float(sys.argv[4]) * 1e6 / sent:.1f}", f"{lag['p50'] * 1e3:.1f}",
      f"{lag['p99'] * 1e3:.1f}", s["verdict"], s["sent"], sys.argv[5])
PY
  tail -1 "$work/rows"
}

echo "spin_margin: $bin, --workers $workers, fixed margin ${fixed_us} us vs adaptive, ${duration}s runs, niceness $niceness, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "mode rate cpu_us/req lag_p50_us lag_p99_us verdict sent load1"
for rate in $rates; do
  for ((i = 0; i < reps; i++)); do
    if ((i % 2 == 0)); then one_run fixed "$rate"; one_run adaptive "$rate"
    else one_run adaptive "$rate"; one_run fixed "$rate"; fi
  done
done
echo "medians per rate and mode:"
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for rate in dict.fromkeys(r[1] for r in rows):
    for mode in ("fixed", "adaptive"):
        sel = [r for r in rows if r[1] == rate and r[0] == mode]
        med = lambda i: statistics.median(float(r[i]) for r in sel)
        print(f"{rate:>6} rps  {mode:8}  cpu {med(2):7.1f} us/req  send lag p50 {med(3):7.1f} us  p99 {med(4):8.1f} us"
              f"  load {med(7):.1f}  ({len(sel)} runs)")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
