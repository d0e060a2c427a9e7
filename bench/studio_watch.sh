#!/usr/bin/env bash
# Watches a run in the studio and measures the studio, not the run: starts plumbline-studio
# under Xvfb with WORKLOAD opened and started (--start), records the UI thread's stalls and
# the studio's memory once a second (PLUMBLINE_STUDIO_STATS), waits for the run to end,
# then prints max UI stall, the stall histogram, RSS over time and the run's verdict.
#
#   bench/studio_watch.sh WORKLOAD.json [--rate R] [--duration S] [--build DIR]
#                         [--screenshot FILE.png]
# The run goes into a fresh database in a temporary directory (printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
workload=${1:?usage: bench/studio_watch.sh WORKLOAD.json [--rate R] [--duration S] [--build DIR] [--screenshot FILE]}
shift
build=build/release
shot=""
duration=0
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rate) extra+=("$1" "$2"); shift 2 ;;
    --duration) extra+=("$1" "$2"); duration=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --screenshot) shot=$2; shift 2 ;;
    *) echo "studio_watch.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
studio=$build/app/plumbline-studio
[[ -x $studio ]] || { echo "studio_watch.sh: $studio not built" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "studio_watch.sh: xvfb-run missing (packaging/install-deps.sh)" >&2; exit 2; }

work=$(mktemp -d)
db=$work/runs.db
stats=$work/stats.jsonl
export PLUMBLINE_STUDIO_STATS=$stats

# Inside Xvfb: start the studio, wait for the run it started to end (its row gets a verdict),
# optionally screenshot, then close the studio.
inner=$(cat <<'INNER'
set -euo pipefail
# shellcheck disable=SC2086  # EXTRA_ARGS is a list of flags
"$STUDIO" --db "$DB" --open "$WORKLOAD" --start $EXTRA_ARGS &
studio_pid=$!
plumbline=$(dirname "$STUDIO")/plumbline
# Asleep while the run goes (a poll spawns processes: the headless run it is compared with has
# no such neighbour), then once a second until its row has a verdict.
if [[ ${DURATION%.*} -gt 2 ]]; then
  sleep $(( ${DURATION%.*} - 1 )) &
  wait $! || true
fi
for _ in $(seq 1 3600); do
  sleep 1
  kill -0 "$studio_pid" 2>/dev/null || { echo "studio exited early" >&2; exit 1; }
  if [[ -f $DB ]] && "$plumbline" runs show 1 --db "$DB" 2>/dev/null | grep -Eq '^verdict: (kept_up|harness_limited)'; then
    break
  fi
done
sleep 2  # let the studio draw the end
[[ -n $SHOT ]] && import -window root "$SHOT"
# CPU (user + system) the watching cost: the studio's, and the X server's that shows it.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz}' "/proc/$1/stat"; }
echo "studio CPU: $(cpu_s "$studio_pid") s over $SECONDS s"
xvfb=$(pgrep -f "^Xvfb ${DISPLAY} " | head -1 || true)
[[ -n $xvfb ]] && echo "Xvfb CPU: $(cpu_s "$xvfb") s"
kill "$studio_pid"
wait "$studio_pid" || true
INNER
)
STUDIO=$studio DB=$db WORKLOAD=$workload SHOT=$shot DURATION=$duration EXTRA_ARGS="${extra[*]:-}" \
  xvfb-run -a -s "-screen 0 1600x1000x24" bash -c "$inner"

echo "== studio while watching (one line per second: t_s max_stall_ms rss_kb)"
python3 - "$stats" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if not rows:
    sys.exit("no stats recorded")
for r in rows[:: max(1, len(rows) // 12)]:
    print(f"  t={r['t_s']:7.1f}s  max_stall={r['max_stall_ms']:7.2f} ms  rss={r['rss_kb'] / 1024:7.1f} MiB")
last = rows[-1]
print(f"max UI stall: {last['max_stall_ms']:.2f} ms over {last['samples']} samples "
      f"({last['stalls_over_50ms']} over 50 ms)")
if "max_busy_stall_ms" in last:
    print(f"of which the UI thread's own CPU work: max {last['max_busy_stall_ms']:.2f} ms "
          f"({last['busy_stalls_over_50ms']} over 50 ms; the rest of a stall is time the kernel ran other threads)")
print("stall histogram:", json.dumps(last["histogram"]))
print(f"RSS: start {rows[0]['rss_kb'] / 1024:.1f} MiB, end {last['rss_kb'] / 1024:.1f} MiB, "
      f"max {max(r['rss_kb'] for r in rows) / 1024:.1f} MiB")
# Flatness: least-squares slope of RSS over time, past the first 30 s (charts filling up),
# from one sample every 10 s.
every10, seen = [], set()
for r in rows:
    if r["t_s"] >= 30 and int(r["t_s"] // 10) not in seen:
        seen.add(int(r["t_s"] // 10))
        every10.append(r)
if len(every10) >= 3:
    n = len(every10)
    mt = sum(r["t_s"] for r in every10) / n
    mr = sum(r["rss_kb"] for r in every10) / n
    slope = sum((r["t_s"] - mt) * (r["rss_kb"] - mr) for r in every10) / sum((r["t_s"] - mt) ** 2 for r in every10)
    print(f"RSS every 10 s from t=30 s (MiB): " + " ".join(f"{r['rss_kb'] / 1024:.1f}" for r in every10))
    print(f"RSS slope from t=30 s: {slope * 60:+.1f} KiB/min over {every10[-1]['t_s'] - every10[0]['t_s']:.0f} s "
          f"({n} samples)")
PY
echo "== the run (database $db)"
"$build/app/plumbline" runs show 1 --db "$db" | head -5
