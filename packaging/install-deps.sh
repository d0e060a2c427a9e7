#!/usr/bin/env bash
# Installs Plumbline's build, test and run dependencies on Debian 12.
# Idempotent: installs only what is missing. Works as root; uses sudo otherwise.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang libclang-rt-14-dev ccache mold pkg-config git
  libcurl4-openssl-dev libevent-dev libsimdjson-dev nlohmann-json3-dev
  libsqlite3-dev libcli11-dev libpcre2-dev libicu-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev qtkeychain-qt6-dev qt6-qpa-plugins
  dbus-daemon dbus-bin gnome-keyring libsecret-1-0 libsecret-tools
  xvfb xauth imagemagick x11-utils xdotool fonts-dejavu-core
  sqlite3 curl procps wrk
  # bench only: bench/nginx_vs_h2load.sh (static nginx target, h2load reference load generator)
  nginx-light nghttp2-client
  # bench only: profiling the workers during bench/concurrent_streams.sh (perf record / perf probe)
  linux-perf
  # bench only: reading summaries (jq) and arithmetic (bc) in bench/*.sh; instruction counts
  # (valgrind's callgrind, bench/callgrind_share.sh)
  jq bc valgrind
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
    echo "install-deps: not root and no sudo; install these yourself: ${packages[*]}" >&2
    exit 1
  fi
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

# Node.js runs the OpenAI SDK conformance test; machines that already have a node keep it.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
