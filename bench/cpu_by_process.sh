#!/usr/bin/env bash
# Where a run's CPU time goes, by process and thread, and within each by code: ours
# (the plumbline binary), each library, the vDSO clock and the kernel. `perf record` samples
# `plumbline run` and every process it starts on the cpu-clock event every 250 µs of CPU
# time (--inherit), so a sample count is CPU time whatever the machine's load; the mock is
# started outside perf and not counted. Roles come from thread names: the coordinator's main
# thread, its SQLite writer (`pl-writer`) and live-telemetry thread (`pl-live`), and each
# worker (`pl-worker-N`; its start-up, before it is named, is attributed by process id).
# Usage: bench/cpu_by_process.sh [PLUMBLINE_BIN] [--rate R] [--duration S] [--workers N]
#                                [--stream] [--period-us US]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
rate=5000 duration=5 workers=1 stream=false period_us=250
while [ $# -gt 0 ]; do
  case "$1" in
    --rate) rate="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --stream) stream=true; shift ;;
    --period-us) period_us="$2"; shift 2 ;;
    *) echo "cpu_by_process: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -ge 1 ] && [ "$duration" -le 60 ] || { echo "cpu_by_process: need 1 <= --duration <= 60" >&2; exit 2; }
for tool in perf python3; do command -v $tool >/dev/null || { echo "cpu_by_process: $tool missing" >&2; exit 1; }; done
[ -x "$bin" ] || { echo "cpu_by_process: no plumbline binary at $bin" >&2; exit 1; }

work="$(mktemp -d)"
trap 'stop_mocks; rm -rf "$work"' EXIT
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"
if [ "$stream" = true ]; then
  start_mock mock --listen 127.0.0.1:0 --threads 1 --ttft-ms 5 --itl-ms 5; tokens=64
else
  start_mock mock --listen 127.0.0.1:0 --threads 1 --preset instant; tokens=1
fi
write_probe_workload "$work/w.json" "cpu by process" "$stream" "$tokens"

echo "cpu_by_process: $bin, stream=$stream, $rate rps for ${duration}s, --workers $workers, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
perf record -q -e cpu-clock -c "$((period_us * 1000))" --inherit -o "$work/perf.data" -- \
  "$bin" run "$work/w.json" --target "$mock_url" --db "$work/r.db" --workers "$workers" --rate "$rate" \
  --duration "$duration" --quiet --summary-json "$work/s.json" >/dev/null 2>"$work/perf.err" || true
[ -s "$work/s.json" ] || { echo "cpu_by_process: the run wrote no summary" >&2; cat "$work/perf.err" >&2; exit 1; }
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
perf script -i "$work/perf.data" -F comm,pid,tid,ip,dso 2>/dev/null >"$work/samples"
python3 - "$work/samples" "$work/s.json" "$period_us" <<'PY'
import collections, json, re, sys
samples_file, summary_file, period_us = sys.argv[1], sys.argv[2], float(sys.argv[3])
summary = json.load(open(summary_file))
requests = max(1, summary["completed"])
rows = []
for line in open(samples_file):
    m = re.match(r"\s*(.+?)\s+(\d+)/(\d+)\s+\S+\s+\((.*)\)\s*$", line)
    if m: rows.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
coordinator = {pid for comm, pid, tid, dso in rows if comm in ("pl-writer", "pl-live")}
worker_of = {pid: comm for comm, pid, tid, dso in rows if comm.startswith("pl-worker-")}
def role(comm, pid):
    if pid in worker_of: return worker_of[pid]
    if comm in ("pl-writer", "pl-live"): return comm + " (coordinator thread)"
    if pid in coordinator or not coordinator: return "coordinator main thread"
    return f"other pid {pid} ({comm})"
def kind(dso):
    base = dso.rsplit("/", 1)[-1]
    if base.startswith("[kernel") or dso.startswith("[kernel"): return "kernel"
    if base == "[vdso]": return "vdso clock"
    if base == "plumbline": return "plumbline (ours)"
    for lib in ("libcurl", "libc.so", "libsqlite3", "libevent", "libsimdjson", "libstdc++", "libnghttp2", "libssl", "libcrypto", "libz"):
        if base.startswith(lib): return lib.replace(".so", "")
    return "other: " + base
by_role = collections.defaultdict(collections.Counter)
for comm, pid, tid, dso in rows: by_role[role(comm, pid)][kind(dso)] += 1
total = sum(sum(c.values()) for c in by_role.values())
print(f"{summary['completed']} requests completed, verdict {summary['verdict']}, send lag p99 {summary['send_lag_ms']['p99'] * 1e3:.0f} us")
print(f"CPU sampled: {total * period_us / 1e6:.3f} s = {total * period_us / requests:.1f} us/request (one sample = {period_us:.0f} us of CPU)")
kinds = sorted({k for c in by_role.values() for k in c}, key=lambda k: -sum(c[k] for c in by_role.values()))
for r in sorted(by_role, key=lambda r: -sum(by_role[r].values())):
    n = sum(by_role[r].values())
    parts = "  ".join(f"{k} {100 * by_role[r][k] / n:.0f}%" for k in kinds if by_role[r][k])
    print(f"  {r:34} {n * period_us / requests:7.1f} us/req ({100 * n / total:4.1f}% of all)  {parts}")
print("all processes by code: " + "  ".join(f"{k} {100 * sum(c[k] for c in by_role.values()) / total:.1f}%" for k in kinds))
PY
