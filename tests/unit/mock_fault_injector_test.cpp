// Seeded fault injection: rates, determinism, and the shape of each fault.
#include <gtest/gtest.h>

#include "core/mock/fault_injector.h"

namespace {

using plumbline::mock::FaultClass;
using plumbline::mock::FaultInjector;
using plumbline::mock::FaultPlan;
using plumbline::mock::FaultSettings;
using plumbline::mock::kFaultClassCount;

FaultSettings only(FaultClass cls, double rate) {
  FaultSettings s;
  s.rates[static_cast<size_t>(cls)] = rate;
  return s;
}

TEST(FaultInjector, NoRatesNoFaults) {
  FaultInjector f(FaultSettings{}, 0);
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(f.draw().has_value());
}

TEST(FaultInjector, DrawsEachClassAtItsRate) {
  FaultSettings s;
  for (size_t i = 0; i < kFaultClassCount; ++i) s.rates[i] = 0.05;
  FaultInjector f(s, 3);
  std::array<int, kFaultClassCount> seen{};
  const int n = 100'000;
  for (int i = 0; i < n; ++i) {
    if (auto c = f.draw()) ++seen[static_cast<size_t>(*c)];
  }
  for (size_t i = 0; i < kFaultClassCount; ++i) EXPECT_NEAR(seen[i], 0.05 * n, 0.005 * n) << i;
}

TEST(FaultInjector, IsSeededPerLoop) {
  const FaultSettings s = only(FaultClass::Http500, 0.5);
  FaultInjector a(s, 1);
  FaultInjector b(s, 1);
  FaultInjector c(s, 2);
  int differ = 0;
  for (int i = 0; i < 200; ++i) {
    const auto x = a.draw();
    EXPECT_EQ(x, b.draw());
    differ += x != c.draw() ? 1 : 0;
  }
  EXPECT_GT(differ, 0);
}

TEST(FaultInjector, NonStreamingRepliesGetTheBodyAnaloguesOfStreamFaults) {
  FaultSettings s;
  s.stallMs = 100;
  s.trickleItlMs = 20;
  FaultInjector f(s, 0);
  const FaultPlan stall = f.plan(FaultClass::StallMidStream, 10, false);
  EXPECT_EQ(stall.body.pieces, 2);
  EXPECT_EQ(stall.body.gapNs, 100'000'000);
  EXPECT_EQ(stall.stallAt, FaultPlan::kNever);  // the tokens themselves are not delayed
  const FaultPlan cut = f.plan(FaultClass::StreamCut, 10, false);
  EXPECT_TRUE(cut.body.cutAfterFirst);
  EXPECT_EQ(cut.cutAfter, FaultPlan::kNever);
  EXPECT_TRUE(f.plan(FaultClass::MalformedChunk, 10, false).body.malformed);
  const FaultPlan trickle = f.plan(FaultClass::SlowTrickle, 10, false);
  EXPECT_EQ(trickle.body.pieces, 10);
  EXPECT_EQ(trickle.body.gapNs, 20'000'000);
  EXPECT_EQ(trickle.trickleItlNs, 0);
  EXPECT_EQ(f.plan(FaultClass::StallFirstByte, 10, false).holdFirstByteNs, 100'000'000);
  EXPECT_FALSE(f.plan(FaultClass::Http500, 10, false).body.active());
  EXPECT_FALSE(f.plan(FaultClass::StreamCut, 10, true).body.active());
}

TEST(FaultInjector, PlansShapeTheResponse) {
  FaultSettings s;
  s.stallMs = 100;
  s.trickleItlMs = 20;
  FaultInjector f(s, 0);
  EXPECT_EQ(f.plan(FaultClass::StreamCut, 10).cutAfter, 5);
  EXPECT_EQ(f.plan(FaultClass::StreamCut, 1).cutAfter, 0);
  EXPECT_EQ(f.plan(FaultClass::MalformedChunk, 10).malformedAt, 5);
  EXPECT_EQ(f.plan(FaultClass::StallFirstByte, 10).holdFirstByteNs, 100'000'000);
  const FaultPlan mid = f.plan(FaultClass::StallMidStream, 10);
  EXPECT_EQ(mid.stallAt, 5);
  EXPECT_EQ(mid.stallNs, 100'000'000);
  EXPECT_EQ(f.plan(FaultClass::SlowTrickle, 10).trickleItlNs, 20'000'000);
  const FaultPlan none = f.plan(std::nullopt, 10);
  EXPECT_EQ(none.cutAfter, FaultPlan::kNever);
  EXPECT_EQ(none.malformedAt, -1);
}

}  // namespace
