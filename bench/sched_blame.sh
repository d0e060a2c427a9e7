#!/usr/bin/env bash
# Which tasks held the CPUs while a running `plumbline run`'s workers waited to run: records
# the scheduler for S seconds (perf sched record -a; needs perf and the right to trace the
# whole machine) and attributes each worker wake-up that waited >= 0.2 / 0.5 ms to whatever ran
# on its CPU meanwhile (bench/sched_blame.py). Start the run (headless or from the studio)
# first, then this.
#   bench/sched_blame.sh [--seconds S]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds=10
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    *) echo "sched_blame: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$seconds" -ge 1 ] && [ "$seconds" -le 60 ] || { echo "sched_blame: need 1 <= --seconds <= 60" >&2; exit 2; }
for tool in perf python3; do command -v $tool >/dev/null || { echo "sched_blame: $tool missing" >&2; exit 1; }; done
pgrep -x "pl-worker-0" >/dev/null || echo "sched_blame: no pl-worker-0 running; recording anyway" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
perf sched record -a -o "$work/sched.data" -- sleep "$seconds" >/dev/null 2>&1
perf sched timehist -i "$work/sched.data" >"$work/timehist.txt" 2>/dev/null
python3 "$here/sched_blame.py" "$work/timehist.txt" 0.2 0.5
