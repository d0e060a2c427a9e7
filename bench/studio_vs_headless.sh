#!/usr/bin/env bash
# Issue 5, must-show 3: does watching a run in the studio change it? Runs the same workload
# at the same rate and duration alternately headless (`plumbline run`) and watched
# (bench/studio_watch.sh: the studio under Xvfb starts it and draws it live), --pairs times in
# ABAB order, so slow drifts of the machine hit both alike. Per run it prints the verdict, the
# windows whose send lag p99 broke the tolerance, the whole run's send lag p99/max, and for
# watched runs the studio's UI stall and RSS, and the CPU the studio and Xvfb used.
#   bench/studio_vs_headless.sh WORKLOAD.json [--rate R] [--duration S] [--pairs N] [--build DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
workload=${1:?usage: bench/studio_vs_headless.sh WORKLOAD.json [--rate R] [--duration S] [--pairs N] [--build DIR]}
shift
rate=5000 duration=60 pairs=2 build=build/release
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rate) rate=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "studio_vs_headless.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $duration -le 300 && $pairs -le 5 ]] || { echo "studio_vs_headless.sh: --duration <= 300 and --pairs <= 5" >&2; exit 2; }
plumbline=$build/app/plumbline
[[ -x $plumbline ]] || { echo "studio_vs_headless.sh: $plumbline not built" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "studio_vs_headless.sh: sqlite3 missing" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The stored run's figures: verdict, windows over the tolerance (of all), send lag p99 and max.
describe() {  # $1 = database
  local tol
  tol=$(sqlite3 "$1" "SELECT coalesce(json_extract(spec_json, '$.verdict.send_lag_tolerance_ms'), 1) FROM runs WHERE id = 1")
  sqlite3 -separator ' ' "$1" "SELECT r.verdict,
      (SELECT count(*) FROM windows w WHERE w.run_id = 1 AND w.send_lag_p99_ms > $tol),
      (SELECT count(*) FROM windows w WHERE w.run_id = 1),
      printf('%.3f', json_extract(r.summary_json, '$.send_lag_ms.p99')),
      printf('%.2f', json_extract(r.summary_json, '$.send_lag_ms.max')),
      r.sent, r.planned
    FROM runs r WHERE r.id = 1" |
    awk -v tol="$tol" '{printf "verdict %-15s windows over %s ms: %2d of %3d  send lag p99 %s ms, max %s ms  sent %s/%s", $1, tol, $2, $3, $4, $5, $6, $7}'
}

echo "studio_vs_headless: $workload at $rate/s for $duration s, $pairs pairs, $(nproc) cores"
for i in $(seq 1 "$pairs"); do
  db=$work/headless-$i.db
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$plumbline" run "$workload" --db "$db" --rate "$rate" --duration "$duration" --quiet >/dev/null 2>&1 || true
  echo "headless $i (load $load): $(describe "$db")"
  load=$(cut -d' ' -f1 /proc/loadavg)
  out=$(bash bench/studio_watch.sh "$workload" --rate "$rate" --duration "$duration" --build "$build" 2>&1) || {
    echo "$out" >&2; echo "studio_vs_headless.sh: watched run $i failed" >&2; exit 1; }
  wdb=$(sed -n 's/^== the run (database \(.*\))$/\1/p' <<<"$out")
  echo "watched  $i (load $load): $(describe "$wdb")"
  grep -E '^(max UI stall|RSS:|RSS slope|studio CPU|Xvfb CPU)' <<<"$out" | sed 's/^/    /'
  rm -rf "$(dirname "$wdb")"
done
