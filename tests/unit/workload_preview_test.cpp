#include <gtest/gtest.h>

#include "core/workload/plan_preview.h"
#include "core/workload/workload_loader.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::validDocument;
using json = nlohmann::json;

namespace {
WorkloadSpec catalog(const char* name) {
  return loadWorkloadFile(std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/" + name);
}
}  // namespace

TEST(WorkloadPreview, ConstantFixedWorkloadIsExact) {
  const auto spec = catalog("constant_500rps_stream.json");
  const auto preview = buildPreview(spec);
  EXPECT_EQ(preview.sessions, 5000u);
  EXPECT_EQ(preview.requests, 5000u);
  EXPECT_DOUBLE_EQ(preview.durationS, 10);
  ASSERT_EQ(preview.stages.size(), 1u);
  EXPECT_EQ(preview.stages[0].plannedSessions, 5000u);
  EXPECT_DOUBLE_EQ(preview.stages[0].expectedSessions, 5000);
  EXPECT_DOUBLE_EQ(preview.stages[0].expectedRequestRate, 500);
  EXPECT_EQ(preview.input.min, 128u);
  EXPECT_EQ(preview.input.p50, 128u);
  EXPECT_EQ(preview.input.max, 128u);
  EXPECT_DOUBLE_EQ(preview.output.mean, 16);
  EXPECT_EQ(preview.totalInputTokens, 640000u);
  EXPECT_EQ(preview.totalOutputTokens, 80000u);
  EXPECT_DOUBLE_EQ(preview.inputTokensPerS, 64000);
  EXPECT_DOUBLE_EQ(preview.outputTokensPerS, 8000);
}

TEST(WorkloadPreview, StagesCountWhatThePlannerPlaced) {
  const auto spec = catalog("quickstart.json");
  const auto preview = buildPreview(spec);
  ASSERT_EQ(preview.stages.size(), 3u);
  EXPECT_DOUBLE_EQ(preview.stages[1].startS, 10);
  EXPECT_DOUBLE_EQ(preview.stages[1].endS, 30);
  EXPECT_DOUBLE_EQ(preview.stages[1].startRate, 5);
  EXPECT_DOUBLE_EQ(preview.stages[1].endRate, 40);
  EXPECT_DOUBLE_EQ(preview.stages[1].expectedSessions, 450);
  uint64_t sum = 0;
  for (const auto& stage : preview.stages) {
    EXPECT_NEAR(static_cast<double>(stage.plannedSessions), stage.expectedSessions,
                5 * std::sqrt(stage.expectedSessions));
    sum += stage.plannedSessions;
  }
  EXPECT_EQ(sum, preview.sessions);
  EXPECT_GE(preview.input.min, 16u);
  EXPECT_LE(preview.input.max, 2048u);
  EXPECT_LE(preview.input.p1, preview.input.p10);
  EXPECT_LE(preview.input.p10, preview.input.p50);
  EXPECT_LE(preview.input.p50, preview.input.p90);
  EXPECT_LE(preview.input.p90, preview.input.p99);
  EXPECT_NEAR(preview.input.p50, 256, 20);
  EXPECT_NEAR(preview.output.mean, 64, 3);
}

TEST(WorkloadPreview, PercentilesAreExactNearestRank) {
  auto document = validDocument();
  document["load"]["stages"] = json::parse(R"([{"rate": 100, "duration_s": 1}])");
  const auto spec = parseWorkload(document);
  const auto preview = buildPreview(spec);
  ASSERT_EQ(preview.sessions, 100u);
  EXPECT_EQ(preview.input.p1, 100u);
  EXPECT_EQ(preview.input.p99, 100u);
}

TEST(WorkloadPreview, TextAndJsonCarryTheSameFacts) {
  const auto spec = catalog("quickstart.json");
  const auto preview = buildPreview(spec);
  const std::string text = formatPreview(preview, spec);
  EXPECT_NE(text.find("quickstart: a minute of chat"), std::string::npos);
  EXPECT_NE(text.find("poisson"), std::string::npos);
  EXPECT_NE(text.find("lognormal"), std::string::npos);
  EXPECT_NE(text.find(std::to_string(preview.sessions) + " sessions"), std::string::npos);
  const auto j = previewJson(preview, spec);
  EXPECT_EQ(j["name"], spec.name);
  EXPECT_EQ(j["sessions"], preview.sessions);
  EXPECT_EQ(j["stages"].size(), 3u);
  EXPECT_EQ(j["stages"][2]["planned_sessions"], preview.stages[2].plannedSessions);
  EXPECT_EQ(j["input_tokens"]["p50"], preview.input.p50);
  EXPECT_EQ(j["target"]["api"], "chat");
}

TEST(WorkloadPreview, HandlesMillionsOfSessions) {
  auto document = validDocument();
  document["load"] = {{"arrival", "poisson"},
                      {"seed", 3},
                      {"stages", json::parse(R"([{"rate": 100000, "duration_s": 20}])")}};
  document["requests"]["input_tokens"] = {{"dist", "uniform"}, {"min", 1}, {"max", 1000}};
  const auto preview = buildPreview(parseWorkload(document));
  EXPECT_NEAR(static_cast<double>(preview.sessions), 2e6, 5 * std::sqrt(2e6));
  EXPECT_NEAR(preview.input.p50, 500, 5);
  EXPECT_EQ(preview.input.min, 1u);
  EXPECT_EQ(preview.input.max, 1000u);
}
