#!/usr/bin/env bash
# Installs what is missing, builds, and runs the quickstart workload against the embedded
# target, printing the live status line and the verdict. (The studio will open here once it
# exists; on a machine without a display this stays the terminal run.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release
cmake --build --preset release
exec ./build/release/app/plumbline run workloads/quickstart.json "$@"
