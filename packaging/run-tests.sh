#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test. This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
# The official openai SDK, pinned by tests/conformance/package-lock.json, for the conformance test.
npm ci --prefix tests/conformance --no-audit --no-fund --loglevel=error
cmake --preset dev
cmake --build --preset dev
ctest --preset dev -j2
# The whole suite again under ASan + UBSan, opt-in (PLUMBLINE_ASAN=1; =core for the engine only): a second
# build of ~970 CPU-s plus ~515 CPU-s of tests, too much for CI's 20 minutes (README "Sanitizers").
if [ -n "${PLUMBLINE_ASAN:-}" ]; then bash packaging/run-asan-tests.sh; fi
