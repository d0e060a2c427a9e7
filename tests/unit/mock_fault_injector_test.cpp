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
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(f.draw(true).has_value());
}

TEST(FaultInjector, DrawsEachClassAtItsRate) {
  FaultSettings s;
  for (size_t i = 0; i < kFaultClassCount; ++i) s.rates[i] = 0.05;
  FaultInjector f(s, 3);
  std::array<int, kFaultClassCount> seen{};
  const int n = 100'000;
  for (int i = 0; i < n; ++i) {
    if (auto c = f.draw(true)) ++seen[static_cast<size_t>(*c)];
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
    const auto x = a.draw(true);
    EXPECT_EQ(x, b.draw(true));
    differ += x != c.draw(true) ? 1 : 0;
  }
  EXPECT_GT(differ, 0);
}

TEST(FaultInjector, StreamOnlyFaultsSpareNonStreamingRequests) {
  FaultInjector f(only(FaultClass::StreamCut, 1.0), 0);
  EXPECT_FALSE(f.draw(false).has_value());
  EXPECT_EQ(f.draw(true), FaultClass::StreamCut);
  FaultInjector g(only(FaultClass::Http503, 1.0), 0);
  EXPECT_EQ(g.draw(false), FaultClass::Http503);
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
