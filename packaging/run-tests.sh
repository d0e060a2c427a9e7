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
# ASan + UBSan engine tests, opt-in: at least 8 more minutes on a clean 2-core machine (README "Sanitizers").
if [ -n "${PLUMBLINE_ASAN:-}" ]; then bash packaging/run-asan-tests.sh; fi
