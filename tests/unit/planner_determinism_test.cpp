#include <vector>

#include <gtest/gtest.h>

#include "core/util/rng.h"
#include "core/workload/planner.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::planAll;
using plumbline::testing::validDocument;
using json = nlohmann::json;

namespace {

WorkloadSpec varied(uint64_t seed, const char* arrival, const char* stages) {
  auto document = validDocument();
  document["load"] = {{"arrival", arrival}, {"seed", seed}, {"stages", json::parse(stages)}};
  document["requests"]["input_tokens"] = {{"dist", "lognormal"}, {"median", 300}, {"sigma", 0.8}};
  document["requests"]["output_tokens"] = {{"dist", "exponential"}, {"mean", 90}};
  return parseWorkload(document);
}

bool same(const SessionPlan& a, const SessionPlan& b) {
  return a.id == b.id && a.plannedNs == b.plannedNs && a.inputTokens == b.inputTokens &&
         a.outputTokens == b.outputTokens && a.stage == b.stage;
}

constexpr const char* kStages =
    R"([{"rate": 20, "duration_s": 30}, {"ramp_to": 200, "duration_s": 30}])";

}  // namespace

TEST(PlannerDeterminism, SameSpecGivesTheSameSequence) {
  const auto a = planAll(varied(7, "poisson", kStages));
  const auto b = planAll(varied(7, "poisson", kStages));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same(a[i], b[i])) << i;
}

TEST(PlannerDeterminism, DifferentSeedsDiffer) {
  const auto a = planAll(varied(7, "poisson", kStages));
  const auto b = planAll(varied(8, "poisson", kStages));
  size_t differentTimes = 0, differentLengths = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    differentTimes += a[i].plannedNs != b[i].plannedNs;
    differentLengths += a[i].inputTokens != b[i].inputTokens;
  }
  EXPECT_GT(differentTimes, a.size() / 2);
  EXPECT_GT(differentLengths, a.size() / 2);
}

TEST(PlannerDeterminism, LengthsDependOnlyOnSeedAndId) {
  const auto a = planAll(varied(7, "poisson", kStages));
  const auto b = planAll(varied(7, "constant", R"([{"rate": 1000, "duration_s": 3}])"));
  const size_t common = std::min(a.size(), b.size());
  ASSERT_GT(common, 1000u);
  for (size_t i = 0; i < common; ++i) {
    ASSERT_EQ(a[i].inputTokens, b[i].inputTokens) << i;
    ASSERT_EQ(a[i].outputTokens, b[i].outputTokens) << i;
  }
  // And they are exactly the documented stream: forStream(seed, 1'000'000 + id).
  const auto spec = varied(7, "poisson", kStages);
  auto rng = plumbline::util::Rng::forStream(7, 1'000'000 + 123);
  EXPECT_EQ(sampleLength(spec.requests.inputTokens, rng), a[123].inputTokens);
  EXPECT_EQ(sampleLength(spec.requests.outputTokens, rng), a[123].outputTokens);
}

TEST(PlannerDeterminism, ArrivalsDoNotDependOnLengths) {
  auto spec = varied(7, "poisson", kStages);
  const auto a = planAll(spec);
  spec.requests.inputTokens = LengthDist{DistKind::Fixed, 5, 0, 1, 10, {}};
  const auto b = planAll(spec);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i].plannedNs, b[i].plannedNs);
}
