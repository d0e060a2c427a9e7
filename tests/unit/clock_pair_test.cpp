// The wall clock and the monotonic clock read as one instant (core/util/clock_pair.h): every
// pair's window holds the true offset between the clocks, so any two pairs' windows overlap,
// however long the reading thread was held up between its reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "core/util/clock.h"
#include "core/util/clock_pair.h"

namespace {

using plumbline::util::ClockPair;
using plumbline::util::readClockPair;

struct OffsetRange {
  int64_t low = 0;
  int64_t high = 0;
};

/// The offset realtime - monotonic that the pair vouches for, widened by 1 µs for NTP slewing
/// (at most 500 ppm: far less than 1 µs over this test).
OffsetRange offsetOf(const ClockPair& p) {
  const int64_t half = p.windowNs / 2 + 1;
  return {p.realNs - p.monoNs - half - 1'000, p.realNs - p.monoNs + half + 1'000};
}

TEST(ClockPair, EveryPairsWindowHoldsTheSameOffsetBetweenTheClocks) {
  const OffsetRange first = offsetOf(readClockPair());
  OffsetRange common = first;
  for (int i = 0; i < 20'000; ++i) {
    const ClockPair p = readClockPair();
    ASSERT_GE(p.windowNs, 0);
    const OffsetRange r = offsetOf(p);
    common = {std::max(common.low, r.low), std::min(common.high, r.high)};
    ASSERT_LE(common.low, common.high) << "pair " << i << " disagrees with the ones before it";
  }
}

TEST(ClockPair, TheMonotonicHalfIsBetweenReadsTakenBeforeAndAfter) {
  const int64_t before = plumbline::util::monotonicNs();
  const ClockPair p = readClockPair();
  const int64_t after = plumbline::util::monotonicNs();
  EXPECT_LE(before, p.monoNs - p.windowNs / 2);
  EXPECT_GE(after, p.monoNs + p.windowNs / 2);
}

}  // namespace
