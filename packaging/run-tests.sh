#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test twice: in the optimised build (`ci`
# preset: the release build, where timing precision is checked) and under ASan + UBSan +
# LeakSanitizer (`asan-ci`). This is what CI runs. Both builds are unity builds (one compile per
# 8 sources), which is what makes the two fit in CI's 20 minutes on 2 cores (README "Sanitizers").
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step starts with a UTC time stamp, so a CI log shows where its minutes went.
step() { echo "== $(date -u +%H:%M:%S) $*"; }
step "install what is missing"
bash packaging/install-deps.sh
# The official openai SDK, pinned by tests/conformance/package-lock.json, for the conformance test.
npm ci --prefix tests/conformance --no-audit --no-fund --loglevel=error
cmake --preset ci
cmake --preset asan-ci
step "build the optimised tree (ci)"
cmake --build --preset ci

# The optimised suite's integration tests run one at a time and mostly wait on the processes they
# start, leaving CPU idle: the ASan build takes it meanwhile, as SCHED_IDLE, which the kernel runs
# only on CPU nothing else wants. That does not hold everywhere (a CPU quota throttles the whole
# group, idle tasks included), so the runs whose timing is judged (label `integration-timing`,
# tests/CMakeLists.txt) wait until the build is done.
mkdir -p build
asan_log=build/asan-ci-build.log
idle=(chrt --idle 0)
if ! chrt --idle 0 true 2>/dev/null; then idle=(nice -n 19); fi  # no SCHED_IDLE here: lowest nice
"${idle[@]}" cmake --build --preset asan-ci >"$asan_log" 2>&1 &
asan_build=$!
suite=0
step "the optimised suite, the ASan build beside it"
ctest --preset ci -j2 --label-exclude timing || suite=$?
build=0
wait "$asan_build" || build=$?
step "ASan build (ran beside the optimised suite) done; last lines of $asan_log:"
tail -n 3 "$asan_log"
if [ "$build" -ne 0 ]; then
  cat "$asan_log"
  echo "ASan build failed (exit $build)" >&2
  exit "$build"
fi
step "the optimised suite's timing-judged runs, with nothing building beside them"
ctest --preset ci --label-regex timing || suite=$?
step "the ASan + UBSan suite"
ctest --preset asan-ci -j3 || suite=$?
step "done"
exit "$suite"
