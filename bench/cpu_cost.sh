#!/usr/bin/env bash
# Client CPU per request and per streamed chunk, every process of the run counted.
# `plumbline run` is started under bench/rusage_probe, which reads getrusage(RUSAGE_CHILDREN)
# after it exits: user + system time of the run process (coordinator, writer and live
# threads) and of every worker it spawned and reaped. The mock target is started outside
# the wrapper, so its CPU is not in the figure. Nothing is subtracted: the "whole" figures
# include process start, planning, database creation and shutdown; the "marginal" figures
# are (CPU of a long run − CPU of a short run) / (work of long − work of short) at the same
# rate, which cancels the fixed costs openly rather than silently.
#   non-streaming: `plumbline mock --preset instant`, one request = one completion body.
#   streaming:     the mock pacing 64 tokens 5 ms apart (--ttft-ms 5 --itl-ms 5), so each
#                  chunk arrives on its own; chunks are counted from the run's own
#                  database (sum of requests.chunks: 64 tokens + usage + [DONE]).
#   reference:     h2load --rps on the instant mock at the same rate, and Plumbline sending in
#                  h2load's own pattern (bursts every 10 ms, from a trace): the like-for-like
#                  ratio, since evenly timed sends pay a wake-up per request that bursts share.
#   libcurl:       bench/curl_loop (the issue's "bare libcurl multi loop": socket API + epoll,
#                  reused handles, keep-alive, counts SSE events and nothing more), in each of
#                  the three patterns on the same mocks, its own getrusage; each Plumbline figure
#                  is then given as a ratio to it. The issue's targets as ratios to its figures
#                  for libcurl: 15/17.5 = 0.86 per request, 6/7.5 = 0.80 per chunk.
# Usage: bench/cpu_cost.sh [PLUMBLINE_BIN] [--workers N] [--rate R] [--stream-rate R]
#                          [--short S] [--long S]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
probe="$here/../build/release/bench/rusage_probe"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
workers=1 rate=10000 stream_rate=300 short=2 long=8
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --stream-rate) stream_rate="$2"; shift 2 ;;
    --short) short="$2"; shift 2 ;;
    --long) long="$2"; shift 2 ;;
    *) echo "cpu_cost: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$long" -le 30 ] && [ "$short" -lt "$long" ] || { echo "cpu_cost: need --short < --long <= 30" >&2; exit 2; }
for tool in sqlite3 awk; do command -v $tool >/dev/null || { echo "cpu_cost: $tool missing" >&2; exit 1; }; done
[ -x "$bin" ] || { echo "cpu_cost: no plumbline binary at $bin" >&2; exit 1; }
[ -x "$probe" ] || probe="$(dirname "$bin")/../bench/rusage_probe"
[ -x "$probe" ] || { echo "cpu_cost: rusage_probe not built (cmake --build --preset release --target rusage_probe)" >&2; exit 1; }
curl_loop="$(dirname "$probe")/curl_loop"
[ -x "$curl_loop" ] || { echo "cpu_cost: curl_loop not built (cmake --build --preset release --target curl_loop)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'stop_mocks; rm -rf "$work"' EXIT
# shellcheck source=bench/bench_common.sh
source "$here/bench_common.sh"


json_field() { sed -n "s/.*\"$1\": *\"\{0,1\}\([^\",}]*\).*/\1/p" "$2" | head -1; }

# Runs plumbline under the probe; prints "cpu_s completed chunks verdict sys_s".
measured_run() {  # $1 = workload, $2 = url, $3 = rate, $4 = duration
  local db="$work/run.db" cpu sys verdict completed chunks
  rm -f "$db" "$db-wal" "$db-shm" "$work/s.json"
  read -r cpu sys < <("$probe" --quiet "$bin" run "$1" --target "$2" --db "$db" --workers "$workers" --rate "$3" \
           --duration "$4" --quiet --summary-json "$work/s.json" | awk '{printf "%.6f %.6f\n", $1 + $2, $2}')
  [ -s "$work/s.json" ] || { echo "cpu_cost: the run wrote no summary" >&2; exit 1; }
  verdict="$(json_field verdict "$work/s.json")"
  completed="$(json_field completed "$work/s.json")"
  chunks="$(sqlite3 "$db" 'SELECT coalesce(sum(chunks), 0) FROM requests')"
  echo "$cpu $completed $chunks $verdict $sys"
}

# marginal_us SHORT LONG UNIT: the marginal CPU per request or chunk, (CPU of the long run −
# CPU of the short one) / (work of long − work of short).
marginal_us() {
  awk -v s="$1" -v l="$2" -v unit="$3" 'BEGIN { split(s, a, " "); split(l, b, " "); col = (unit == "req") ? 2 : 3
    d = b[col] - a[col]; if (d < 1) d = 1; printf "%.4f", (b[1] - a[1]) * 1e6 / d }'
}

report() {  # $1 = label, $2 = unit (req|chunk), $3 = short result, $4 = long result
  awk -v label="$1" -v unit="$2" -v s="$3" -v l="$4" -v marginal="$(marginal_us "$3" "$4" "$2")" 'BEGIN {
    split(s, a, " "); split(l, b, " "); col = (unit == "req") ? 2 : 3
    printf "%s\tshort: %.3f s CPU / %d %s (%s)\tlong: %.3f s CPU (%.0f%% system) / %d %s (%s)\n", label, a[1], a[col], unit, a[4], b[1], 100 * b[5] / b[1], b[col], unit, b[4]
    printf "%s\twhole run (long): %.2f us/%s\tmarginal (long-short): %.2f us/%s\n", label, b[1] * 1e6 / (b[col] > 0 ? b[col] : 1), unit, marginal, unit }'
}

start_mock instant --listen 127.0.0.1:0 --threads 1 --preset instant
url_instant="$mock_url"
start_mock paced --listen 127.0.0.1:0 --threads 1 --ttft-ms 5 --itl-ms 5
url_paced="$mock_url"
write_probe_workload "$work/nonstream.json" "cpu cost probe" false 1
write_probe_workload "$work/stream.json" "cpu cost probe" true 64
echo "cpu_cost: $bin, --workers $workers, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "counted: user+sys of plumbline run and every child it reaped (RUSAGE_CHILDREN of rusage_probe); the mocks are not counted"
ns_short="$(measured_run "$work/nonstream.json" "$url_instant" "$rate" "$short")"
ns_long="$(measured_run "$work/nonstream.json" "$url_instant" "$rate" "$long")"
report "non-streaming @ $rate rps" req "$ns_short" "$ns_long"
# libcurl_run LABEL UNIT(req|chunk) PLUMBLINE_US ARGS...: runs curl_loop, prints its CPU per unit
# and Plumbline's figure as a ratio to it.
libcurl_run() {
  local label="$1" unit="$2" ours="$3"; shift 3
  local out
  # A reference that did not complete every request has no figure to compare with: say so and
  # what it printed, and go on to the rest of the benchmark.
  out="$("$curl_loop" "$@")" || {
    printf 'libcurl multi loop, %s\tno figure: it did not complete every request (%s)\n' "$label" "$out"
    return 0
  }
  awk -v label="$label" -v unit="$unit" -v ours="$ours" -v line="$out" 'BEGIN {
      n = split(line, kv, " "); for (i = 1; i <= n; ++i) { split(kv[i], p, "="); f[p[1]] = p[2] }
      cpu = f["user_s"] + f["sys_s"]; count = (unit == "req") ? f["completed"] : f["chunks"]
      us = cpu * 1e6 / (count > 0 ? count : 1)
      printf "libcurl multi loop, %s\t%.3f s CPU (%.0f%% system) / %d %s (send late p99 %.0f us, %d connections)\t%.2f us/%s\tplumbline/libcurl %.2f\n",
        label, cpu, 100 * f["sys_s"] / cpu, count, unit, f["late_p99_us"], f["connections"], us, unit, ours / us }'
}
libcurl_run "evenly at $rate rps" req "$(marginal_us "$ns_short" "$ns_long" req)" \
  --url "$url_instant" --rate "$rate" --duration "$long" --pattern even
if command -v h2load >/dev/null; then
  # The reference in the same run and machine state: h2load's CPU per request, same mock, same rate.
  per_client=$(( (rate + 63) / 64 ))
  printf '%s' '{"model":"mock","messages":[{"role":"user","content":"say ok"}],"max_tokens":1,"ignore_eos":true,"temperature":0}' >"$work/request.json"
  h2="$("$probe" h2load --h1 -t1 -c64 --rps "$per_client" -D "$long" -d "$work/request.json" \
         -H 'content-type: application/json' "$url_instant/v1/chat/completions" 2>&1)"
  awk -v rate="$((per_client * 64))" '/^requests:/ {ok = $8} END {
      printf "h2load reference @ %d rps (same mock)\t%.3f s CPU (%.0f%% system) / %d req\t%.2f us/req (whole run)\n",
        rate, $1 + $2, 100 * $2 / ($1 + $2), ok, ($1 + $2) * 1e6 / (ok > 0 ? ok : 1) }' <<<"$h2"
  # h2load --rps does not send evenly: each client's timer fires at most every 10 ms
  # (nghttp2 h2load.cc: rps_watcher.repeat = max(0.01, 1 / rps)) and sends what came due, so
  # both sides wake once per burst. Plumbline sent the same way (a trace with rate/100 requests
  # sharing each instant, 10 ms apart) is the like-for-like figure; its send lag shows the bursts.
  burst=$(( (rate + 99) / 100 ))
  awk -v bursts="$((long * 100))" -v n="$burst" 'BEGIN {
      print "TIMESTAMP,ContextTokens,GeneratedTokens"
      for (k = 0; k < bursts; ++k)
        for (i = 0; i < n; ++i)
          printf "2023-11-16 18:%02d:%02d.%07d,16,1\n", int(k / 6000), int(k / 100) % 60, (k % 100) * 100000 }' >"$work/bursts.csv"
  cat >"$work/bursts.json" <<JSON
{"plumbline": 1, "name": "cpu cost probe, h2load's send pattern",
 "target": {"url": "embedded", "api": "chat", "model": "mock", "stream": false},
 "load": {"arrival": "trace", "max_in_flight": 20000,
          "trace": {"file": "$work/bursts.csv", "format": "azure_csv", "time_scale": 1.0, "start_offset_s": 0,
                    "window_s": $((long + 1)), "lengths": "trace"}},
 "requests": {"sampling": {"ignore_eos": true, "temperature": 0}}}
JSON
  rm -f "$work/run.db" "$work/run.db-wal" "$work/run.db-shm" "$work/s.json"
  read -r bu bs _ < <("$probe" --quiet "$bin" run "$work/bursts.json" --target "$url_instant" --db "$work/run.db" \
                        --workers "$workers" --quiet --summary-json "$work/s.json")
  [ -s "$work/s.json" ] || { echo "cpu_cost: the burst run wrote no summary" >&2; exit 1; }
  awk -v u="$bu" -v s="$bs" -v n="$(json_field completed "$work/s.json")" -v v="$(json_field verdict "$work/s.json")" \
      -v lag="$(sed -n '/"send_lag_ms"/,/}/ s/.*"p99": *\([0-9.e+-]*\).*/\1/p' "$work/s.json" | head -1)" -v b="$burst" 'BEGIN {
      printf "plumbline, h2load'"'"'s send pattern (%d at once every 10 ms)\t%.3f s CPU (%.0f%% system) / %d req (%s, send lag p99 %.2f ms)\t%.2f us/req (whole run)\n",
        b, u + s, 100 * s / (u + s), n, v, lag, (u + s) * 1e6 / (n > 0 ? n : 1) }'
  bursts_us="$(awk -v u="$bu" -v s="$bs" -v n="$(json_field completed "$work/s.json")" 'BEGIN { printf "%.4f", (u + s) * 1e6 / (n > 0 ? n : 1) }')"
  libcurl_run "h2load's send pattern ($burst at once every 10 ms; ratio of plumbline's whole run)" req "$bursts_us" \
    --url "$url_instant" --rate "$rate" --duration "$long" --pattern bursts
fi
st_short="$(measured_run "$work/stream.json" "$url_paced" "$stream_rate" "$short")"
st_long="$(measured_run "$work/stream.json" "$url_paced" "$stream_rate" "$long")"
report "streaming 64 tok @ 5 ms, $stream_rate streams/s" chunk "$st_short" "$st_long"
libcurl_run "streaming 64 tok @ 5 ms, $stream_rate streams/s" chunk "$(marginal_us "$st_short" "$st_long" chunk)" \
  --url "$url_paced" --rate "$stream_rate" --duration "$long" --pattern even --stream
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
