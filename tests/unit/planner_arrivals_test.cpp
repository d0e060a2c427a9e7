#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/workload/planner.h"
#include "ks_test.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::planAll;
using plumbline::testing::ksCritical;
using plumbline::testing::ksStatistic;
using plumbline::testing::specWithStages;
using json = nlohmann::json;

namespace {

/// Λ(t) for the test's own check of the planner's inversion.
double integratedRate(const WorkloadSpec& spec, double t) {
  double total = 0, start = 0;
  for (const Stage& stage : spec.load.stages) {
    const double tau = std::clamp(t - start, 0.0, stage.durationS);
    const double slope = (stage.endRate - stage.startRate) / stage.durationS;
    total += stage.startRate * tau + 0.5 * slope * tau * tau;
    start += stage.durationS;
  }
  return total;
}

}  // namespace

TEST(PlannerArrivals, ConstantIsExactlyEvenlySpaced) {
  const auto spec = specWithStages(json::parse(R"([{"rate": 500, "duration_s": 10}])"), "constant");
  const auto plan = planAll(spec);
  ASSERT_EQ(plan.size(), 5000u);
  EXPECT_EQ(plan.front().plannedNs, 1'000'000);  // the first at half a gap
  for (size_t i = 1; i < plan.size(); ++i) {
    ASSERT_NEAR(plan[i].plannedNs - plan[i - 1].plannedNs, 2'000'000, 1) << i;
    ASSERT_EQ(plan[i].id, i);
  }
  EXPECT_LE(plan.back().plannedNs, 10'000'000'000);
}

TEST(PlannerArrivals, PoissonGapsAreExponential) {
  const auto spec = specWithStages(json::parse(R"([{"rate": 100, "duration_s": 200}])"), "poisson");
  const auto plan = planAll(spec);
  ASSERT_GT(plan.size(), 19000u);
  std::vector<double> gaps;
  for (size_t i = 1; i < plan.size(); ++i)
    gaps.push_back(static_cast<double>(plan[i].plannedNs - plan[i - 1].plannedNs) * 1e-9);
  EXPECT_LT(ksStatistic(gaps, [](double g) { return g <= 0 ? 0.0 : 1.0 - std::exp(-100 * g); }),
            ksCritical(gaps.size()));
  EXPECT_NEAR(static_cast<double>(plan.size()), 20000, 5 * std::sqrt(20000.0));
}

TEST(PlannerArrivals, PoissonOnRampsIsExponentialInRescaledTime) {
  const auto spec = specWithStages(json::parse(R"([{"ramp_to": 200, "duration_s": 60},
      {"rate": 200, "ramp_to": 20, "duration_s": 60}, {"rate": 50, "duration_s": 30}])"),
                                   "poisson");
  const auto plan = planAll(spec);
  std::vector<double> gaps;
  double previous = 0;
  for (const auto& s : plan) {
    const double lambda = integratedRate(spec, static_cast<double>(s.plannedNs) * 1e-9);
    gaps.push_back(lambda - previous);
    previous = lambda;
  }
  EXPECT_LT(ksStatistic(gaps, [](double g) { return g <= 0 ? 0.0 : 1.0 - std::exp(-g); }),
            ksCritical(gaps.size()));
}

TEST(PlannerArrivals, ConstantRampCountsMatchTheIntegral) {
  const auto spec = specWithStages(json::parse(R"([{"ramp_to": 100, "duration_s": 10},
      {"rate": 100, "ramp_to": 0, "duration_s": 4}, {"rate": 3, "ramp_to": 7, "duration_s": 10}])"),
                                   "constant");
  std::vector<uint64_t> perStage(3, 0);
  for (const auto& s : planAll(spec)) ++perStage[s.stage];
  EXPECT_EQ(perStage[0], 500u);
  EXPECT_EQ(perStage[1], 200u);
  EXPECT_EQ(perStage[2], 50u);
}

TEST(PlannerArrivals, ConstantRampFromZeroStartsWhereTheIntegralReachesHalf) {
  const auto spec =
      specWithStages(json::parse(R"([{"ramp_to": 100, "duration_s": 10}])"), "constant");
  Planner planner(spec);
  SessionPlan s;
  ASSERT_TRUE(planner.next(s));
  // Λ(t) = 5 t², Λ = 0.5 at t = sqrt(0.1).
  EXPECT_NEAR(static_cast<double>(s.plannedNs) * 1e-9, std::sqrt(0.1), 1e-9);
}

TEST(PlannerArrivals, PoissonRampCountsMatchTheIntegral) {
  const auto spec = specWithStages(json::parse(R"([{"rate": 10, "ramp_to": 300, "duration_s": 100},
      {"ramp_to": 0, "duration_s": 50}])"),
                                   "poisson");
  std::vector<double> perStage(2, 0);
  for (const auto& s : planAll(spec)) ++perStage[s.stage];
  EXPECT_NEAR(perStage[0], 15500, 5 * std::sqrt(15500.0));
  EXPECT_NEAR(perStage[1], 7500, 5 * std::sqrt(7500.0));
}

TEST(PlannerArrivals, ZeroRateStageIsSilent) {
  const auto spec = specWithStages(json::parse(R"([{"rate": 10, "duration_s": 1},
      {"rate": 0, "duration_s": 5}, {"rate": 10, "duration_s": 1}])"),
                                   "constant");
  const auto plan = planAll(spec);
  ASSERT_EQ(plan.size(), 20u);
  for (const auto& s : plan) {
    const double t = static_cast<double>(s.plannedNs) * 1e-9;
    EXPECT_TRUE(t <= 1.0 || t >= 6.0) << t;
    EXPECT_NE(s.stage, 1u);
  }
}

TEST(PlannerArrivals, NearlyFlatRampMatchesAFixedStage) {
  const auto flat =
      planAll(specWithStages(json::parse(R"([{"rate": 100, "duration_s": 10}])"), "constant"));
  const auto ramp = planAll(specWithStages(
      json::parse(R"([{"rate": 100, "ramp_to": 100.000000001, "duration_s": 10}])"), "constant"));
  ASSERT_EQ(flat.size(), ramp.size());
  for (size_t i = 0; i < flat.size(); ++i) ASSERT_NEAR(flat[i].plannedNs, ramp[i].plannedNs, 2);
}

TEST(PlannerArrivals, PlannedTimesNeverDecreaseAndStayInTheRun) {
  const auto spec = specWithStages(json::parse(R"([{"ramp_to": 1000, "duration_s": 5},
      {"ramp_to": 0, "duration_s": 5}])"),
                                   "poisson");
  Planner planner(spec);
  SessionPlan s;
  int64_t last = 0;
  while (planner.next(s)) {
    ASSERT_GE(s.plannedNs, last);
    ASSERT_LE(s.plannedNs, planner.durationNs());
    last = s.plannedNs;
  }
  EXPECT_EQ(planner.durationNs(), 10'000'000'000);
  EXPECT_FALSE(planner.next(s));  // stays exhausted
}

TEST(PlannerArrivals, ExpectedSessionsIsTheIntegral) {
  EXPECT_DOUBLE_EQ(expectedSessions(Stage{10, 10, 3}), 30);
  EXPECT_DOUBLE_EQ(expectedSessions(Stage{0, 100, 10}), 500);
  EXPECT_DOUBLE_EQ(expectedSessions(Stage{50, 0, 2}), 50);
}
