#!/usr/bin/env bash
# Installs what is missing, builds, and runs the quickstart workload against the embedded
# simulator. With a display: opens the studio with workloads/quickstart.json loaded and the
# embedded simulator selected (press Start for live charts). With no display: the terminal
# run, printing the live status line and the verdict.
# PLUMBLINE_TERMINAL=1 forces the terminal run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release
cmake --build --preset release
if [[ -z "${PLUMBLINE_TERMINAL:-}" && ( -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ) \
      && -x ./build/release/app/plumbline-studio ]]; then
  exec ./build/release/app/plumbline-studio --open workloads/quickstart.json "$@"
fi
exec ./build/release/app/plumbline run workloads/quickstart.json "$@"
