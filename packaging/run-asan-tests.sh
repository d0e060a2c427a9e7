#!/usr/bin/env bash
# Builds everything under ASan + UBSan + LeakSanitizer (clang, `asan` preset) and runs the whole
# suite there: unit, integration, studio (QtTest, offscreen), conformance and the fuzz-corpus
# replays. CI runs the same suite through packaging/run-tests.sh (`asan-ci`: unity build, no
# benchmarks); this script is for running it alone. README "Sanitizers" has the timings.
# PLUMBLINE_ASAN=core runs the engine only (asan-core: no Qt studio, no studio tests).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=asan
if [ "${PLUMBLINE_ASAN:-}" = core ]; then preset=asan-core; fi
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset" -j2
