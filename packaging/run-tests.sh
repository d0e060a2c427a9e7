#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test. This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset dev
cmake --build --preset dev
ctest --preset dev -j2
