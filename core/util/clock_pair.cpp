#include "core/util/clock_pair.h"

#include "core/util/clock.h"

namespace plumbline::util {

namespace {
constexpr int kTries = 4;
constexpr int64_t kTightWindowNs = 20'000;
}  // namespace

ClockPair readClockPair() {
  ClockPair best;
  for (int i = 0; i < kTries; ++i) {
    const int64_t before = monotonicNs();
    const int64_t real = wallClockNs();
    const int64_t after = monotonicNs();
    const ClockPair pair{real, before + (after - before) / 2, after - before};
    if (i == 0 || pair.windowNs < best.windowNs) best = pair;
    if (best.windowNs <= kTightWindowNs) break;
  }
  return best;
}

}  // namespace plumbline::util
