#!/usr/bin/env bash
# Builds the engine under ASan + UBSan (asan-core: no Qt studio) and runs its unit and
# integration tests. Not part of the default CI run: see README "Sanitizers" for the timings.
# PLUMBLINE_ASAN=full runs the whole suite (asan preset, studio included) instead.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=asan-core
if [ "${PLUMBLINE_ASAN:-}" = full ]; then preset=asan; fi
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset" -j2
