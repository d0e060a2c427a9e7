#!/usr/bin/env bash
# Issue 6, target 3: against the mock pacing 64 tokens 5 ms apart, Plumbline holds kept_up
# up to the highest rate the mock itself can serve, and the mock (one event-loop thread) is
# what runs out of CPU first. Climbs a ladder of session rates; at each, the run's verdict,
# the mock's pacing (ITL p99 as measured, against its configured 5 ms), the CPU share of one
# core used by the mock (/proc/PID/stat) and by every Plumbline process (coordinator + workers,
# getrusage), and the share of the run the mock spent runnable but waiting for a CPU
# (/proc/PID/task/*/schedstat; Plumbline's too with --sample). "The mock ran out of CPU" reads as: the mock's share
# near 100 % (one loop thread) while Plumbline's is below it and neither waited much; a
# large wait means the machine, not either process, set the pace. --pin gives each side a CPU
# of its own (the mock on the last CPU, every Plumbline process on the others, by taskset): on
# a 2-CPU machine the two otherwise take turns on both CPUs, and neither can run out of CPU on
# its own. Plumbline's CPU is read once the run is over (getrusage); --sample instead samples
# every process every 0.25 s while the run goes, which adds Plumbline's run-queue wait but takes
# CPU from the run it watches (enough to push send-lag windows over 1 ms at 1,000/s). Usage:
#   bench/streaming_capacity.sh [PLUMBLINE_BIN] [--duration S] [--workers W] [--rates "R1 R2 ..."]
#                               [--pin] [--sample]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
pin=0 sample=0 duration=5 workers=1 rates="250 500 1000 1500 2000 2500 3000 4000 5000"
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --rates) rates="$2"; shift 2 ;;
    --pin) pin=1; shift ;;
    --sample) sample=1; shift ;;
    *) echo "streaming_capacity: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 30 ] || { echo "streaming_capacity: --duration is capped at 30 s" >&2; exit 2; }
work="$(mktemp -d)"
trap 'stop_mocks; rm -rf "$work"' EXIT
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"
# shellcheck source=bench/proc_sampler.sh
source "$here/proc_sampler.sh"
start_mock mock --listen 127.0.0.1:0 --threads 1 --ttft-ms 5 --itl-ms 5
probe="$(dirname "$bin")/../bench/rusage_probe"
[ "$sample" = 1 ] || [ -x "$probe" ] || {
  echo "streaming_capacity: bench/rusage_probe not built next to $bin (cmake --build --preset release --target rusage_probe)" >&2; exit 1; }
run_prefix=() placement="both share every CPU"
if [ "$pin" = 1 ]; then
  last=$(( $(nproc) - 1 ))
  [ "$last" -ge 1 ] || { echo "streaming_capacity: --pin needs 2 CPUs or more" >&2; exit 2; }
  command -v taskset >/dev/null || { echo "streaming_capacity: --pin needs taskset (util-linux)" >&2; exit 1; }
  taskset -a -p -c "$last" "${mock_pids[0]}" >/dev/null  # every thread of the mock, already started
  run_prefix=(taskset -c "0-$((last - 1))")                  # the run and the workers it starts
  placement="mock pinned to CPU $last, Plumbline to CPUs 0-$((last - 1))"
fi
cat >"$work/w.json" <<JSON
{"plumbline": 1, "name": "streaming capacity",
 "target": {"url": "$mock_url", "api": "chat", "model": "mock", "stream": true},
 "load": {"arrival": "constant", "seed": 1, "stages": [{"rate": 100, "duration_s": 1}], "max_in_flight": 20000},
 "requests": {"input_tokens": {"dist": "fixed", "value": 64}, "output_tokens": {"dist": "fixed", "value": 64},
              "sampling": {"ignore_eos": true, "temperature": 0}}}
JSON
hz=$(getconf CLK_TCK)
echo "streaming_capacity: mock $mock_url (1 thread, 64 tokens 5 ms apart), $workers workers, $duration s per rate, $(nproc) cores, $placement"
uptime
printf 'rate\tverdict\tsent/planned\terrors\tchunks/s\titl_p99_ms\tttft_p99_ms\tmock_cpu\tmock_waited\tplumbline_cpu\tplumbline_waited\n'
for rate in $rates; do
  t0=$(date +%s.%N)
  set +e
  if [ "$sample" = 0 ]; then
    # Nothing sampled while the run goes: the sampler's forks every 0.25 s take CPU from the
    # run (session 12: at 1,000-1,250/s, pinned or not, windows went over 1 ms with it; without
    # it the same runs kept up, send lag p99 0.02-0.13 ms). Plumbline's CPU from getrusage of
    # the run and the workers it reaped (rusage_probe), the mock's CPU and run-queue wait from
    # /proc before and after; Plumbline's run-queue wait is not read ("-": --sample reads it).
    m0=$(cpu_ticks "${mock_pids[0]}") w0=$(run_queue_wait_ms "${mock_pids[0]}")
    read -r pu ps < <("${run_prefix[@]}" "$probe" --quiet "$bin" run "$work/w.json" --db "$work/runs.db" \
      --workers "$workers" --rate "$rate" --duration "$duration" --quiet --summary-json "$work/s.json" 2>"$work/run.err")
    m1=$(cpu_ticks "${mock_pids[0]}") w1=$(run_queue_wait_ms "${mock_pids[0]}")
    printf 'mock %s %s 0 %s\nrun 0 %s 0 -\n' "${mock_pids[0]}" "$((m1 - m0))" "$((w1 - w0))" \
      "$(awk -v u="$pu" -v s="$ps" -v hz="$hz" 'BEGIN { printf "%.0f", (u + s) * hz }')" >"$work/procs"
  else
    "${run_prefix[@]}" "$bin" run "$work/w.json" --db "$work/runs.db" --workers "$workers" --rate "$rate" \
      --duration "$duration" --quiet --summary-json "$work/s.json" 2>"$work/run.err" &
    run=$!
    # Every process's CPU and run-queue wait, sampled until the run exits (a worker's ticks
    # vanish with it, so the last sample of each counts); the mock's only since this rate began.
    sample_procs "$work/procs" "$run" "mock=${mock_pids[0]}"
    wait "$run"
  fi
  set -e
  wall=$(echo "$(date +%s.%N) - $t0" | bc -l)
  # Shares of one core over the run's wall time: CPU used, and time spent waiting for a CPU.
  read -r mc mw pc pw < <(awk -v hz="$hz" -v wall="$wall" -v sample="$sample" '
    { if ($1 == "mock") { mc += $3; mw += $5 } else { pc += $3; pw += $5 } }
    END { printf "%d%% %d%% %d%% %s\n", 100 * mc / hz / wall, 100 * mw / 1000 / wall,
                                          100 * pc / hz / wall, (sample == 0) ? "-" : sprintf("%d%%", 100 * pw / 1000 / wall) }' "$work/procs")
  [ -n "${DEBUG_CPU:-}" ] && cat "$work/procs" >&2
  jq -r --arg r "$rate" --arg mc "$mc" --arg mw "$mw" --arg pc "$pc" --arg pw "$pw" \
     '[$r, .verdict, "\(.sent)/\(.planned)", ([.errors[]] | add // 0), (.completed * 66 / .duration_s | floor),
       .itl_ms.p99, .ttft_ms.p99, $mc, $mw, $pc, $pw] | @tsv' "$work/s.json"
  jq -r '.verdict_reasons[]? | "  reason: " + .' "$work/s.json"
done
uptime
