# Shared by the scale and timing benchmarks (source it): start mocks, read a process's CPU.
# Expects $work (a temporary directory) and fills $mock_pids and $mock_url.

mock_pids=()
mock_url=""

# start_mock NAME ARGS...: a `plumbline mock` on an ephemeral port (or the one in ARGS);
# sets mock_url to the address it prints first.
start_mock() {
  local name="$1"; shift
  "$bin" mock "$@" >"$work/$name.out" 2>"$work/$name.err" &
  mock_pids+=($!)
  for _ in $(seq 100); do [ -s "$work/$name.out" ] && break; sleep 0.05; done
  mock_url="$(head -1 "$work/$name.out")"
  [[ "$mock_url" == http://127.0.0.1:* ]] || { echo "mock $name did not start: $(cat "$work/$name.err")" >&2; exit 1; }
}

stop_mocks() {
  for p in "${mock_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${mock_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  mock_pids=()
}

# cpu_ticks PID...: utime + stime of the processes (all their threads), in clock ticks.
cpu_ticks() {
  local total=0 p t
  for p in "$@"; do
    t=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)
    total=$((total + t))
  done
  echo "$total"
}

# write_probe_workload FILE NAME STREAM OUTPUT_TOKENS: the cost probes' workload (constant
# arrivals, 16-token prompts, fixed output length, temperature 0); rates come from --rate.
write_probe_workload() {
  cat >"$1" <<JSON
{"plumbline": 1, "name": "$2",
 "target": {"url": "embedded", "api": "chat", "model": "mock", "stream": $3},
 "load": {"arrival": "constant", "seed": 1, "stages": [{"rate": 100, "duration_s": 1}], "max_in_flight": 20000},
 "requests": {"input_tokens": {"dist": "fixed", "value": 16}, "output_tokens": {"dist": "fixed", "value": $4},
              "sampling": {"ignore_eos": true, "temperature": 0}}}
JSON
}
