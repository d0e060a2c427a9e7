#include <gtest/gtest.h>

#include <stdexcept>

#include "core/engine/spin_margin.h"

using plumbline::engine::SpinMargin;

namespace {

SpinMargin::Params params() {
  SpinMargin::Params p;
  p.minNs = 0;
  p.maxNs = 200'000;
  p.lagGoalNs = 50'000;
  p.lateFraction = 0.01;
  p.slackFraction = 0.005;
  p.epochSamples = 100;
  return p;
}

/// Feeds `n` wake-ups: every `everyNth` one is `lateNs` late, the others `usualNs`.
void feed(SpinMargin& m, int n, int64_t usualNs, int64_t lateNs = 0, int everyNth = 0) {
  for (int i = 1; i <= n; ++i) m.noteLateness(everyNth != 0 && i % everyNth == 0 ? lateNs : usualNs);
}

}  // namespace

TEST(SpinMargin, StartsAtTheMaximumUntilAnEpochHasBeenSeen) {
  SpinMargin m(params());
  EXPECT_EQ(m.marginNs(), 200'000);
  feed(m, 99, 10'000);
  EXPECT_EQ(m.marginNs(), 200'000);
  m.noteLateness(10'000);
  EXPECT_EQ(m.marginNs(), 0);  // every wake-up was within the goal: no spin at all
}

TEST(SpinMargin, CanStartBelowTheMaximumAndLearnUpwards) {
  SpinMargin::Params p = params();
  p.initialNs = 50'000;
  SpinMargin m(p);
  EXPECT_EQ(m.marginNs(), 50'000);  // the worker's start: low enough for its timer to sleep and learn
  feed(m, 100, 120'000);            // a timer that is always 120 µs late
  EXPECT_GE(m.marginNs(), 70'000);  // 120 late − 50 goal
  EXPECT_LE(m.marginNs(), 74'000);
  p.initialNs = 500'000;  // out of bounds: clamped
  EXPECT_EQ(SpinMargin(p).marginNs(), 200'000);
  p.initialNs = -1;  // unset: the maximum
  EXPECT_EQ(SpinMargin(p).marginNs(), 200'000);
}

TEST(SpinMargin, SpinsJustEnoughToBringTheP99UnderTheGoal) {
  SpinMargin m(params());
  feed(m, 200, 120'000);  // a timer that is always 120 µs late
  // 120 µs late with a 50 µs goal needs 70 µs of margin; buckets of 2 µs err towards more.
  EXPECT_GE(m.marginNs(), 70'000);
  EXPECT_LE(m.marginNs(), 72'000);
}

TEST(SpinMargin, IgnoresLatenessRarerThanTheAllowedFraction) {
  SpinMargin m(params());
  // 1 in 200 wake-ups is 180 µs late (0.5 % < 1 %): the usual 20 µs needs no spin.
  feed(m, 200, 20'000, 180'000, 200);
  EXPECT_EQ(m.marginNs(), 0);
}

TEST(SpinMargin, CoversLatenessMoreCommonThanTheAllowedFraction) {
  SpinMargin m(params());
  // 1 in 20 wake-ups (5 %) is 150 µs late: the margin must cover it.
  feed(m, 200, 20'000, 150'000, 20);
  EXPECT_GE(m.marginNs(), 100'000);
  EXPECT_LE(m.marginNs(), 102'000);
}

TEST(SpinMargin, DoesNotPayForSpinThatCannotHelp) {
  SpinMargin m(params());
  // 10 % of wake-ups are milliseconds late (a host descheduling the worker): no margin up to
  // the maximum brings them under the goal, and the others need none.
  feed(m, 200, 20'000, 5'000'000, 10);
  EXPECT_EQ(m.marginNs(), 0);
}

TEST(SpinMargin, SpinsForTheHelpableTailEvenWhenTheTargetIsOutOfReach) {
  SpinMargin m(params());
  // 10 % hopeless (5 ms) and 10 % at 130 µs, which an 80 µs margin brings under the goal.
  for (int i = 0; i < 20; ++i) {
    for (int k = 0; k < 8; ++k) m.noteLateness(20'000);
    m.noteLateness(5'000'000);
    m.noteLateness(130'000);
  }
  EXPECT_GE(m.marginNs(), 80'000);
  EXPECT_LE(m.marginNs(), 82'000);
}

TEST(SpinMargin, FollowsTheMachineWithinTwoEpochs) {
  SpinMargin m(params());
  feed(m, 200, 150'000);
  EXPECT_GE(m.marginNs(), 100'000);
  feed(m, 100, 10'000);  // the previous epoch still holds the late wake-ups
  EXPECT_GE(m.marginNs(), 100'000);
  feed(m, 100, 10'000);
  EXPECT_EQ(m.marginNs(), 0);
}

TEST(SpinMargin, StaysWithinItsBounds) {
  SpinMargin::Params p = params();
  p.minNs = 10'000;
  p.maxNs = 60'000;
  SpinMargin m(p);
  feed(m, 200, 0);
  EXPECT_EQ(m.marginNs(), 10'000);
  feed(m, 200, 500'000);
  EXPECT_EQ(m.marginNs(), 10'000);  // hopeless lateness: the maximum would not help either
  feed(m, 200, 100'000);
  EXPECT_EQ(m.marginNs(), 52'000);  // 100 − 50 µs, rounded up to a bucket
  m.noteLateness(-5'000);           // a timer that fired early counts as on time
}

TEST(SpinMargin, FixedNeverAdapts) {
  SpinMargin m = SpinMargin::fixed(200'000);
  EXPECT_FALSE(m.adaptive());
  feed(m, 1000, 0);
  EXPECT_EQ(m.marginNs(), 200'000);
}

TEST(SpinMargin, RejectsInconsistentParameters) {
  SpinMargin::Params p = params();
  p.maxNs = -1;
  EXPECT_THROW(SpinMargin{p}, std::invalid_argument);
  p = params();
  p.epochSamples = 0;
  EXPECT_THROW(SpinMargin{p}, std::invalid_argument);
}

TEST(SpinMargin, ReadsTheBenchmarkKnob) {
  EXPECT_EQ(SpinMargin::fixedMarginFromEnv("X", nullptr), std::nullopt);
  EXPECT_EQ(SpinMargin::fixedMarginFromEnv("X", "200"), 200'000);
  EXPECT_EQ(SpinMargin::fixedMarginFromEnv("X", "0"), 0);
  for (const char* bad : {"", "-1", "12us", "100001", "1e3", "99999999999999999999"}) {
    try {
      SpinMargin::fixedMarginFromEnv("PLUMBLINE_SPIN_MARGIN_US", bad);
      FAIL() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("PLUMBLINE_SPIN_MARGIN_US"), std::string::npos) << e.what();
    }
  }
}
