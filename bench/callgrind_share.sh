#!/usr/bin/env bash
# Where a run's instructions go, by shared object: valgrind callgrind over every process of
# `plumbline run` (coordinator and workers, --trace-children), against the mock started
# outside valgrind. Two runs at the same rate, a short and a long one; the difference
# divided by the difference in completed requests is the steady-state cost per request
# (process start, dynamic linking, planning and shutdown cancel out). Callgrind counts
# user-space instructions only: time in the kernel (syscalls, TCP) is not in these figures;
# bench/cpu_cost.sh gives user vs system CPU. Usage:
#   bench/callgrind_share.sh [PLUMBLINE_BIN] [--stream] [--rate R] [--short S] [--long S]
#                            [--workers N] [--top N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
stream=false rate=300 short=2 long=6 workers=1 top=25
while [ $# -gt 0 ]; do
  case "$1" in
    --stream) stream=true; shift ;;
    --rate) rate="$2"; shift 2 ;;
    --short) short="$2"; shift 2 ;;
    --long) long="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    *) echo "callgrind_share: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$long" -le 20 ] && [ "$short" -lt "$long" ] || { echo "callgrind_share: need --short < --long <= 20" >&2; exit 2; }
for tool in valgrind callgrind_annotate; do command -v $tool >/dev/null || { echo "callgrind_share: $tool missing" >&2; exit 1; }; done

work="$(mktemp -d)"
trap 'stop_mocks; rm -rf "$work"' EXIT
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"
if [ "$stream" = true ]; then
  mock_flags=(--ttft-ms 5 --itl-ms 5) tokens=64
else
  mock_flags=(--preset instant) tokens=1
fi
start_mock mock --listen 127.0.0.1:0 --threads 1 "${mock_flags[@]}"
url="$mock_url"
write_probe_workload "$work/w.json" "callgrind probe" "$stream" "$tokens"

# Profiles one run; leaves "$work/$1.obj" (object TAB instructions, all processes summed),
# "$work/$1.fn" (object TAB function TAB instructions) and "$work/$1.n" (completed requests).
profile() {  # $1 = label, $2 = duration
  mkdir -p "$work/$1"
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/$1/cg.%p" \
    "$bin" run "$work/w.json" --target "$url" --db "$work/$1.db" --workers "$workers" --rate "$rate" \
    --duration "$2" --quiet --summary-json "$work/$1.json" >"$work/$1.log" 2>&1 || true
  [ -s "$work/$1.json" ] || { echo "callgrind_share: the $1 run wrote no summary; see valgrind log:" >&2; tail "$work/$1.log" >&2; exit 1; }
  sed -n 's/.*"completed": *\([0-9]*\).*/\1/p' "$work/$1.json" | head -1 >"$work/$1.n"
  for f in "$work/$1"/cg.*; do callgrind_annotate --inclusive=no --threshold=100 "$f" 2>/dev/null; done |
    awk -F'\t' 'match($0, /^ *[0-9,]+ /) {
        n = substr($0, RSTART, RLENGTH); gsub(/[ ,]/, "", n)
        rest = substr($0, RSTART + RLENGTH); sub(/^\([ 0-9.]+%\) +/, "", rest)
        obj = "(unknown)"
        if (match(rest, /\[[^]]*\]$/)) { obj = substr(rest, RSTART + 1, RLENGTH - 2); rest = substr(rest, 1, RSTART - 2); sub(/.*\//, "", obj) }
        if (rest ~ /PROGRAM TOTALS/) next
        sub(/^[^:]*:/, "", rest); fn[obj "\t" substr(rest, 1, 110)] += n; by[obj] += n }
      END { for (o in by) print o "\t" by[o] > "'"$work/$1.obj"'"; for (k in fn) print k "\t" fn[k] > "'"$work/$1.fn"'" }'
}

echo "callgrind_share: stream=$stream rate=$rate workers=$workers, runs of ${short}s and ${long}s under valgrind; load: $(cut -d' ' -f1-3 /proc/loadavg)"
profile short "$short"
profile long "$long"
ns="$(cat "$work/short.n")" nl="$(cat "$work/long.n")"
echo "completed requests: short $ns, long $nl (valgrind slows the run; what counts is the difference)"
[ "$nl" -gt "$ns" ] || { echo "callgrind_share: the long run completed no more requests than the short one" >&2; exit 1; }
per_request() {  # $1 = short file, $2 = long file, $3 = key columns
  awk -F'\t' -v ns="$ns" -v nl="$nl" -v k="$3" '
    FNR == NR { s[$1 (k > 1 ? "\t" $2 : "")] = $(k + 1); next }
    { key = $1 (k > 1 ? "\t" $2 : ""); d = $(k + 1) - s[key]; if (d > 0) { v[key] = d / (nl - ns); t += v[key] } }
    END { for (x in v) printf "%10.0f\t%5.1f%%\t%s\n", v[x], 100 * v[x] / t, x; printf "%10.0f\t100.0%%\tTOTAL instructions per request\n", t }' "$1" "$2" |
    sort -rn
}
echo "steady-state instructions per request, by object (long − short):"
per_request "$work/short.obj" "$work/long.obj" 1
echo "top $top functions per request (long − short):"
per_request "$work/short.fn" "$work/long.fn" 2 | awk -v n="$((top + 1))" "NR <= n"
echo "top $top functions of plumbline itself per request (long − short):"
per_request "$work/short.fn" "$work/long.fn" 2 | awk -F"\t" -v n="$top" "\$3 == \"plumbline\" && ++k <= n"
