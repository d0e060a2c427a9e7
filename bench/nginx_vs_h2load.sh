#!/usr/bin/env bash
# Highest non-streaming request rate held against a static nginx on loopback: h2load
# (`--h1 --rps`, held = achieved within 2% of requested over the duration) and
# `plumbline run` (held = verdict kept_up), side by side on one ladder of rates in one run,
# and the ratio Plumbline / h2load. Plumbline is also scored by h2load's own criterion
# (achieved within 2% of requested, every planned request sent), because kept_up asks more:
# send lag p99 under the tolerance in every window, which a loaded shared machine can deny. nginx runs from a private prefix in a temp dir
# (worker_processes 1, keep-alive limits raised) and answers every POST with a tiny static
# OpenAI-style chat completion; only that nginx (by its PID) is stopped at the end.
# Each tool's ladder stops after two consecutive misses; the whole script stays within
# about 5 minutes at the defaults. --pin-server keeps nginx (master and worker) on the last
# CPU: unpinned, the kernel can wake nginx onto the client's busy CPU and leave both there
# for tens of milliseconds while another CPU idles (seen at 40,000 rps on a 2-vCPU VM,
# session 13); pinned, every client gets the other CPUs to itself and the server its own.
# The clients stay unpinned (on 2 CPUs, pinning Plumbline's helpers onto its worker's one
# CPU made things worse). Usage:
#   bench/nginx_vs_h2load.sh [PLUMBLINE_BIN] [--duration S] [--workers N] [--threads T]
#                            [--connections C] [--rates "R1 R2 ..."] [--tolerance-ms MS]
#                            [--pin-server]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/release/app/plumbline"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then bin="$1"; shift; fi
duration=5 workers=1 threads=1 connections=64 tolerance=1 pin_server=0
rates="5000 10000 15000 20000 25000 30000 40000 50000 60000 80000"
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --rates) rates="$2"; shift 2 ;;
    --tolerance-ms) tolerance="$2"; shift 2 ;;
    --pin-server) pin_server=1; shift ;;
    *) echo "nginx_vs_h2load: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$duration" -le 10 ] || { echo "nginx_vs_h2load: --duration is capped at 10 s" >&2; exit 2; }
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$nginx_bin" ] || { echo "nginx_vs_h2load: nginx missing (packaging/install-deps.sh installs nginx-light)" >&2; exit 1; }
command -v h2load >/dev/null || { echo "nginx_vs_h2load: h2load missing (nghttp2-client)" >&2; exit 1; }
[ -x "$bin" ] || { echo "nginx_vs_h2load: no plumbline binary at $bin (cmake --preset release && cmake --build --preset release)" >&2; exit 1; }

work="$(mktemp -d)"
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ]; then kill -TERM "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A loopback port nothing listens on (nginx cannot report an ephemeral one); if another
# process takes it first, nginx fails to start and the script says so.
port=""
for _ in $(seq 20); do
  p=$(( 20000 + RANDOM % 30000 ))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
done
[ -n "$port" ] || { echo "nginx_vs_h2load: found no free loopback port" >&2; exit 1; }
body='{"id":"chatcmpl-1","object":"chat.completion","created":1718000000,"model":"mock","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":16,"completion_tokens":1,"total_tokens":17}}'
mkdir -p "$work/logs" "$work/tmp"
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    location / {
      default_type application/json;
      return 200 '$body';
    }
  }
}
CONF
"$nginx_bin" -p "$work" -e "$work/logs/error.log" -c "$work/nginx.conf" &
nginx_pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 50); do curl -s -m 1 -X POST -d '{}' "$url/v1/chat/completions" >/dev/null 2>&1 && break; sleep 0.1; done
curl -s -m 2 -X POST -d '{}' "$url/v1/chat/completions" | grep -q chatcmpl ||
  { echo "nginx_vs_h2load: nginx did not come up; its log:" >&2; cat "$work/logs/error.log" >&2; exit 1; }
placement="nginx unpinned"
if [ "$pin_server" = 1 ]; then
  last=$(( $(nproc) - 1 ))
  [ "$last" -ge 1 ] || { echo "nginx_vs_h2load: --pin-server needs 2 CPUs or more" >&2; exit 2; }
  command -v taskset >/dev/null || { echo "nginx_vs_h2load: --pin-server needs taskset (util-linux)" >&2; exit 1; }
  for p in "$nginx_pid" $(pgrep -P "$nginx_pid"); do taskset -a -p -c "$last" "$p" >/dev/null; done
  placement="nginx pinned to CPU $last (master and worker), clients unpinned"
fi

request='{"model":"mock","messages":[{"role":"user","content":"say ok"}],"max_tokens":1,"temperature":0}'
printf '%s' "$request" >"$work/request.json"
cat >"$work/w.json" <<JSON
{"plumbline": 1, "name": "nginx static, non-streaming",
 "target": {"url": "$url", "api": "chat", "model": "mock", "stream": false},
 "load": {"arrival": "constant", "seed": 1, "stages": [{"rate": 100, "duration_s": 1}], "max_in_flight": 20000},
 "requests": {"input_tokens": {"dist": "fixed", "value": 8}, "output_tokens": {"dist": "fixed", "value": 1},
              "sampling": {"temperature": 0}},
 "verdict": {"send_lag_tolerance_ms": $tolerance}}
JSON

json_field() { sed -n "s/.*\"$1\": *\"\{0,1\}\([^\",}]*\).*/\1/p" "$2" | head -1; }

# h2load holds rate R when the requests it completed over the duration are within 2% of R.
h2load_rate() {  # $1 = requested rate; prints the achieved rate
  local per_client=$(( ($1 + connections - 1) / connections ))
  local asked=$(( per_client * connections ))
  h2load --h1 -t "$threads" -c "$connections" --rps "$per_client" -D "$duration" \
    -d "$work/request.json" -H 'content-type: application/json' "$url/v1/chat/completions" 2>&1 |
    awk -v asked="$asked" '/^requests:/ {ok = $8} END {printf "%.0f %d\n", ok / '"$duration"', asked}'
}
plumbline_verdict() {  # $1 = rate; prints "verdict achieved_rps sent planned"
  "$bin" run "$work/w.json" --db "$work/runs.db" --workers "$workers" --rate "$1" --duration "$duration" \
    --quiet --summary-json "$work/s.json" >/dev/null 2>&1 || true
  : >"$work/reasons.txt"
  if [ -s "$work/s.json" ]; then
    # Why a run was not kept_up, printed under its row.
    jq -r '.verdict_reasons[]? | "  reason: " + .' "$work/s.json" >"$work/reasons.txt"
    echo "$(json_field verdict "$work/s.json") $(json_field achieved_rps "$work/s.json" | awk '{printf "%.0f", $1}')" \
         "$(json_field sent "$work/s.json") $(json_field planned "$work/s.json")"
  else
    echo "failed 0 0 1"
  fi
  rm -f "$work/s.json"
}

echo "nginx_vs_h2load: nginx $("$nginx_bin" -v 2>&1 | sed 's/.*\///') at $url (1 worker process); $(h2load --version | head -1)"
echo "h2load --h1 -t$threads -c$connections --rps per client; plumbline --workers $workers, send-lag tolerance $tolerance ms; ${duration}s per rate; $(nproc) cores, $placement; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'rate\th2load_achieved\th2load_held\tplumbline_verdict\tplumbline_achieved\tplumbline_held_2pct\n'
h2_best=0 pl_best=0 pl2_best=0 h2_miss=0 pl_miss=0
for rate in $rates; do
  [ $h2_miss -ge 2 ] && [ $pl_miss -ge 2 ] && break
  h2="-" h2held="-" pv="-" pa="-" p2="-"
  if [ $h2_miss -lt 2 ]; then
    read -r h2 asked < <(h2load_rate "$rate")
    if awk -v a="$h2" -v r="$asked" 'BEGIN { exit !(a >= 0.98 * r) }'; then h2held=yes h2_best=$rate h2_miss=0
    else h2held=no h2_miss=$((h2_miss + 1)); fi
  fi
  if [ $pl_miss -lt 2 ]; then
    read -r pv pa sent planned < <(plumbline_verdict "$rate")
    if [ "$pv" = kept_up ]; then pl_best=$rate; fi
    if [ "$sent" = "$planned" ] && awk -v a="$pa" -v r="$rate" 'BEGIN { exit !(a >= 0.98 * r) }'; then
      p2=yes pl2_best=$rate pl_miss=0
    else
      p2=no pl_miss=$((pl_miss + 1))
    fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rate" "$h2" "$h2held" "$pv" "$pa" "$p2"
  [ "$pv" = "-" ] || cat "$work/reasons.txt"
done
echo "highest held: h2load $h2_best rps; plumbline kept_up $pl_best rps, plumbline within 2% $pl2_best rps"
awk -v p="$pl_best" -v q="$pl2_best" -v h="$h2_best" 'BEGIN {
  if (h > 0) printf "ratio plumbline/h2load: kept_up %.2f, same 2%% criterion %.2f\n", p / h, q / h
  else print "ratio plumbline/h2load: n/a (h2load held no rate)" }'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
