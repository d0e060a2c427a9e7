// The mock's precise-deadline policy: timers armed a learnt margin early for first tokens,
// the rest busy-waited; and its lateness report. Clocks are passed in: nothing here is timed.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/mock/deadline_waiter.h"
#include "core/mock/token_lateness.h"

namespace {

using plumbline::engine::SpinMargin;
using plumbline::mock::DeadlineWaiter;
using plumbline::mock::spinUntil;
using plumbline::mock::TokenLateness;

TEST(DeadlineWaiter, ArmsOnlySpunDeadlinesEarly) {
  const DeadlineWaiter w(SpinMargin::fixed(50'000));
  EXPECT_EQ(w.wakeAt(1'000'000, true), 950'000);
  EXPECT_EQ(w.wakeAt(1'000'000, false), 1'000'000);
}

TEST(DeadlineWaiter, SpinsOnlyWithinTheMarginBeforeTheDeadline) {
  const DeadlineWaiter w(SpinMargin::fixed(50'000));
  EXPECT_TRUE(w.shouldSpin(950'000, 1'000'000));
  EXPECT_TRUE(w.shouldSpin(999'999, 1'000'000));
  EXPECT_FALSE(w.shouldSpin(949'999, 1'000'000));  // too early: sleep again
  EXPECT_FALSE(w.shouldSpin(1'000'000, 1'000'000));  // due: write now
  EXPECT_FALSE(DeadlineWaiter(SpinMargin::fixed(0)).shouldSpin(999'999, 1'000'000));  // spin off
}

TEST(DeadlineWaiter, MarginFollowsHowLateTimersWake) {
  SpinMargin::Params p;
  p.epochSamples = 16;
  p.lagGoalNs = 10'000;
  DeadlineWaiter w{SpinMargin(p)};
  EXPECT_EQ(w.marginNs(), p.maxNs);  // nothing learnt yet: the most careful margin
  for (int i = 0; i < 32; ++i) w.noteWake(1'000'000, 1'040'000);  // every wake-up 40 µs late
  EXPECT_GE(w.marginNs(), 30'000);  // 40 µs late, 10 µs allowed
  EXPECT_LE(w.marginNs(), 32'000);
  for (int i = 0; i < 32; ++i) w.noteWake(1'000'000, 1'002'000);  // a quiet machine
  EXPECT_EQ(w.marginNs(), 0);
}

TEST(DeadlineWaiter, SpinUntilReturnsTheFirstReadingAtOrPastTheDeadline) {
  int64_t t = 90;
  int calls = 0;
  EXPECT_EQ(spinUntil(100, [&] { ++calls; return t += 3; }), 102);
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(spinUntil(50, [&] { return int64_t{70}; }), 70);  // already due: one reading
}

TEST(TokenLateness, MergesLoopsAndReportsMicroseconds) {
  TokenLateness a, b;
  a.record(true, 5'000);
  b.record(true, 7'000);
  a.record(false, 100'000);
  b.record(false, -2'000);  // early: counted, kept as 0
  plumbline::metrics::LatencyHistogram first, later;
  uint64_t early = 0;
  a.mergeInto(first, later, early);
  b.mergeInto(first, later, early);
  const auto j = nlohmann::json::parse(plumbline::mock::tokenLatenessJson(first, later, early));
  EXPECT_EQ(j["first_token_late_us"]["count"], 2);
  EXPECT_NEAR(j["first_token_late_us"]["max"].get<double>(), 7.0, 0.1);
  EXPECT_EQ(j["later_token_late_us"]["count"], 2);
  EXPECT_NEAR(j["later_token_late_us"]["p50"].get<double>(), 0.0, 0.001);
  EXPECT_NEAR(j["later_token_late_us"]["max"].get<double>(), 100.0, 1.0);
  EXPECT_EQ(j["early_writes"], 1);
}

}  // namespace

namespace {

TEST(TokenLateness, FirstWritesAreListedByArrivalAcrossLoops) {
  TokenLateness a, b;
  a.recordFirstWrite(300, 20'000'300);
  b.recordFirstWrite(100, 20'000'150);
  a.recordFirstWrite(200, 20'000'260);
  std::vector<std::pair<int64_t, int64_t>> all;
  a.appendFirstWrites(all);
  b.appendFirstWrites(all);
  EXPECT_EQ(plumbline::mock::firstWritesText(all), "100 20000150\n200 20000260\n300 20000300\n");
  EXPECT_EQ(plumbline::mock::firstWritesText({}), "");
}

}  // namespace
