// LoopHolds: the worker's event-loop holds, and the longest one a request's flight overlapped.
#include <gtest/gtest.h>

#include "core/engine/loop_holds.h"

using plumbline::engine::LoopHolds;

namespace {
constexpr int64_t kHoldMs = 1'000'000;
}  // namespace

TEST(LoopHolds, HoldsUnderAMillisecondAreNotKept) {
  LoopHolds h;
  h.add(0, kHoldMs - 1);
  EXPECT_EQ(h.size(), 0u);
  EXPECT_EQ(h.longestOverlapping(0, 10 * kHoldMs), 0);
  h.add(5 * kHoldMs, 6 * kHoldMs);
  EXPECT_EQ(h.size(), 1u);
}

TEST(LoopHolds, TheLongestHoldAFlightOverlappedIsItsHold) {
  LoopHolds h;
  h.add(20 * kHoldMs, 75 * kHoldMs);  // QA 24 D1: stopped from 20 to 75 ms
  h.add(100 * kHoldMs, 104 * kHoldMs);
  h.add(300 * kHoldMs, 302 * kHoldMs);
  EXPECT_EQ(h.longestOverlapping(0, 85 * kHoldMs), 55 * kHoldMs);             // in flight across it
  EXPECT_EQ(h.longestOverlapping(0, 20 * kHoldMs), 55 * kHoldMs);             // ended as it began
  EXPECT_EQ(h.longestOverlapping(75 * kHoldMs, 99 * kHoldMs), 55 * kHoldMs);  // sent as it ended
  EXPECT_EQ(h.longestOverlapping(76 * kHoldMs, 99 * kHoldMs), 0);             // between two holds
  EXPECT_EQ(h.longestOverlapping(90 * kHoldMs, 400 * kHoldMs), 4 * kHoldMs);
  EXPECT_EQ(h.longestOverlapping(0, 1'000 * kHoldMs), 55 * kHoldMs);
  EXPECT_EQ(h.longestOverlapping(303 * kHoldMs, 1'000 * kHoldMs), 0);
}

TEST(LoopHolds, OldHoldsAreForgottenAndOverlapsKeptApart) {
  LoopHolds h;
  h.add(0, 10 * kHoldMs);
  h.add(5 * kHoldMs, 12 * kHoldMs);  // measured from a due time inside the last: starts at its end
  EXPECT_EQ(h.longestOverlapping(9 * kHoldMs, 9 * kHoldMs), 10 * kHoldMs);
  EXPECT_EQ(h.longestOverlapping(11 * kHoldMs, 11 * kHoldMs), 2 * kHoldMs);
  EXPECT_EQ(h.longestOverlapping(10 * kHoldMs + 1, 20 * kHoldMs), 2 * kHoldMs);
  h.forgetBefore(11 * kHoldMs);
  EXPECT_EQ(h.size(), 1u);
  EXPECT_EQ(h.longestOverlapping(0, 100 * kHoldMs), 2 * kHoldMs);
}
