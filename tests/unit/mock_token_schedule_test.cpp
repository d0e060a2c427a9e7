// When fixed-timing tokens are due, with and without an injected mid-stream stall.
#include <gtest/gtest.h>

#include "core/mock/timed_completion.h"

namespace {

using plumbline::mock::TokenSchedule;

TEST(TokenSchedule, TokensFollowTtftThenItl) {
  const TokenSchedule s{1000, 50, 10};
  EXPECT_EQ(s.dueAt(1049, 5), 0);
  EXPECT_EQ(s.dueAt(1050, 5), 1);
  EXPECT_EQ(s.dueAt(1079, 5), 3);
  EXPECT_EQ(s.dueAt(9999, 5), 5);
  EXPECT_EQ(s.deadline(4), 1090);
}

TEST(TokenSchedule, AStallDelaysEveryTokenFromItsIndexOn) {
  const TokenSchedule s{0, 50, 10, 2, 1000};
  EXPECT_EQ(s.dueAt(60, 5), 2);
  EXPECT_EQ(s.dueAt(1069, 5), 2);  // token 2 was due at 70, now at 1070
  EXPECT_EQ(s.dueAt(1070, 5), 3);
  EXPECT_EQ(s.dueAt(1090, 5), 5);
  EXPECT_EQ(s.deadline(1), 60);
  EXPECT_EQ(s.deadline(2), 1070);
}

TEST(TokenSchedule, InstantTimingWithAStallHoldsTheRest) {
  const TokenSchedule s{0, 0, 0, 3, 500};
  EXPECT_EQ(s.dueAt(0, 10), 3);
  EXPECT_EQ(s.dueAt(499, 10), 3);
  EXPECT_EQ(s.dueAt(500, 10), 10);
}

}  // namespace
