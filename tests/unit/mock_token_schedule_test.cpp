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

namespace {

// A server that streams every N tokens: the first token alone (TTFT as before), then events of
// N tokens, each written when its last token is due, the last event whatever is left.
TEST(TokenSchedule, TokensGoSeveralToAnEventAfterTheFirst) {
  TokenSchedule s{0, 50, 10};
  s.tokensPerEvent = 4;
  EXPECT_EQ(s.eventEnd(0, 10), 1);
  EXPECT_EQ(s.eventEnd(1, 10), 5);
  EXPECT_EQ(s.eventEnd(5, 10), 9);
  EXPECT_EQ(s.eventEnd(9, 10), 10);
  EXPECT_EQ(s.writable(s.dueAt(50, 10), 10), 1);   // token 0 at 50
  EXPECT_EQ(s.writable(s.dueAt(89, 10), 10), 1);   // tokens 1-3 due, 4 not yet
  EXPECT_EQ(s.writable(s.dueAt(90, 10), 10), 5);   // token 4 at 90 closes the event of 1-4
  EXPECT_EQ(s.writable(s.dueAt(129, 10), 10), 5);
  EXPECT_EQ(s.writable(s.dueAt(130, 10), 10), 9);
  EXPECT_EQ(s.writable(s.dueAt(140, 10), 10), 10);  // the last event holds one token
  EXPECT_EQ(s.writable(0, 10), 0);
  s.tokensPerEvent = 1;  // the default: every token its own event
  EXPECT_EQ(s.eventEnd(3, 10), 4);
  EXPECT_EQ(s.writable(7, 10), 7);
}

}  // namespace
