# Per-process evidence for the scale benchmarks (source it): while a run goes, sample each
# process's CPU ticks and open descriptors, labelled by role, so the report can say which
# process ran out of what. Children's ticks vanish when they exit, so the last sample of each
# process is what counts.

# sample_procs OUT RUN_PID LABEL=PID...: every 0.25 s until RUN_PID exits, writes lines
# "label pid ticks fds waitms" to OUT (the last sample of every process, the peak descriptors,
# and the milliseconds its threads spent runnable but waiting for a CPU: the kernel's
# /proc/PID/task/TID/schedstat, the direct measure of "the machine held it up").
# The run process is labelled "coordinator" and its children "worker"; the processes given
# as LABEL=PID were running before the run, so only their ticks since the call count.
# It runs in a subshell at the lowest priority: its forks (awk, find, pgrep) every 0.25 s must
# not take a CPU from the run they observe (at nice 0 they pushed send-lag p99 past 1 ms at
# 250 streams/s on an idle machine).
sample_procs() (
  renice -n 19 -p "$BASHPID" >/dev/null 2>&1 || true
  local out="$1" run="$2"; shift 2
  local -A label=() ticks=() fds=() base=() wait=() wbase=()
  local kv p t n
  for kv in "$@"; do
    p=${kv#*=}; label[$p]=${kv%%=*}
    base[$p]=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)
    wbase[$p]=$(run_queue_wait_ms "$p")
  done
  label[$run]=coordinator
  while kill -0 "$run" 2>/dev/null; do
    for p in $(pgrep -P "$run" 2>/dev/null); do [ -n "${label[$p]:-}" ] || label[$p]=worker; done
    for p in "${!label[@]}"; do
      t=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null) || continue
      [ -n "$t" ] || continue
      ticks[$p]=$t
      n=$(find "/proc/$p/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
      [ "$n" -gt "${fds[$p]:-0}" ] && fds[$p]=$n
      wait[$p]=$(run_queue_wait_ms "$p")
    done
    sleep 0.25
  done
  : >"$out"
  for p in "${!ticks[@]}"; do echo "${label[$p]} $p $((ticks[$p] - ${base[$p]:-0})) ${fds[$p]:-0} $((wait[$p] - ${wbase[$p]:-0}))" >>"$out"; done
)

# run_queue_wait_ms PID: time all its threads spent runnable, waiting for a CPU.
run_queue_wait_ms() {
  cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ w += $2 } END { printf "%d\n", w / 1e6 }'
}

# print_procs FILE WALL_S: the table sample_procs wrote, with CPU seconds and the share of
# one core over WALL_S seconds.
print_procs() {
  local hz; hz=$(getconf CLK_TCK)
  printf 'process\tpid\tcpu_s\tshare_of_one_core\twaited_for_cpu_s\tpeak_descriptors\n'
  sort -k1,1 -k2,2n "$1" | awk -v hz="$hz" -v wall="$2" \
    '{ printf "%s\t%s\t%.2f\t%.0f%%\t%.2f\t%s\n", $1, $2, $3 / hz, 100 * $3 / hz / wall, $5 / 1000, $4 }'
}
