// Session graphs drawn at plan time, and what they are expected to send.
#include <gtest/gtest.h>

#include "core/workload/plan_preview.h"
#include "core/workload/planner.h"
#include "core/workload/session_estimate.h"
#include "core/workload/session_graph.h"
#include "core/workload/session_parser.h"
#include "workload_test_support.h"

using plumbline::testing::validDocument;
using plumbline::testing::specWithSession;  // validDocument: 10 sessions/s for 10 s, input 100, output 20
using namespace plumbline::workload;

namespace {


const nlohmann::json kZero = {{"dist", "fixed"}, {"value", 0}};

}  // namespace

TEST(SessionGraph, MultiTurnIsAChainWithThinkTime) {
  const auto spec = specWithSession({{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 4}}},
                                 {"think_time_s", {{"dist", "fixed"}, {"value", 1.25}}}});
  const SessionPlan s = drawSession(spec, 3);
  ASSERT_EQ(s.requests.size(), 4u);
  EXPECT_EQ(s.rootCount(), 1u);
  EXPECT_TRUE(s.requests[0].parents.empty());
  for (uint32_t k = 1; k < 4; ++k) {
    EXPECT_EQ(s.requests[k].parents, std::vector<uint32_t>{k - 1});
    EXPECT_EQ(s.requests[k].delayNs, 1'250'000'000);
  }
  // Context growth: 100, then 100+20+100, 220+20+100, 340+20+100.
  EXPECT_EQ(requestInputTokens(s), (std::vector<uint64_t>{100, 220, 340, 460}));
  const SessionTokens t = sessionTokens(s);
  EXPECT_EQ(t.requests, 4u);
  EXPECT_EQ(t.inputTokens, 1120u);
  EXPECT_EQ(t.outputTokens, 80u);
}

TEST(SessionGraph, TreeIsBreadthFirstWithParentContext) {
  const auto spec = specWithSession({{"shape", "tree"}, {"branching", 3}, {"depth", 2}});
  const SessionPlan s = drawSession(spec, 0);
  ASSERT_EQ(s.requests.size(), 13u);  // 1 + 3 + 9
  EXPECT_EQ(s.rootCount(), 1u);
  for (uint32_t i = 1; i <= 3; ++i) EXPECT_EQ(s.requests[i].parents, std::vector<uint32_t>{0});
  for (uint32_t i = 4; i < 13; ++i) EXPECT_EQ(s.requests[i].parents, std::vector<uint32_t>{1 + (i - 4) / 3});
  const auto input = requestInputTokens(s);
  EXPECT_EQ(input[0], 100u);
  EXPECT_EQ(input[2], 220u);
  EXPECT_EQ(input[12], 340u);
  EXPECT_EQ(treeNodes(3, 2), 13);
  EXPECT_EQ(treeNodes(1, 5), 6);
}

TEST(SessionGraph, AgenticAppendsToolResultsAfterToolLatency) {
  const auto spec = specWithSession({{"shape", "agentic"}, {"steps", {{"dist", "fixed"}, {"value", 3}}},
                                 {"tool_latency_s", {{"dist", "fixed"}, {"value", 0.5}}},
                                 {"tool_result_tokens", {{"dist", "fixed"}, {"value", 7}}}});
  const SessionPlan s = drawSession(spec, 1);
  ASSERT_EQ(s.requests.size(), 3u);
  EXPECT_EQ(s.requests[0].text, RequestText::UserMessage);
  EXPECT_EQ(s.requests[1].text, RequestText::ToolResult);
  EXPECT_EQ(s.requests[1].newTokens, 7u);
  EXPECT_EQ(s.requests[2].delayNs, 500'000'000);
  EXPECT_EQ(requestInputTokens(s), (std::vector<uint64_t>{100, 127, 154}));
}

TEST(SessionGraph, SummarizeMapsInParallelThenReducesOverAll) {
  const auto spec = specWithSession({{"shape", "summarize"}, {"chunks", {{"dist", "fixed"}, {"value", 5}}}});
  const SessionPlan s = drawSession(spec, 9);
  ASSERT_EQ(s.requests.size(), 6u);
  EXPECT_EQ(s.rootCount(), 5u);
  EXPECT_EQ(s.requests[5].text, RequestText::Reduce);
  EXPECT_EQ(s.requests[5].parents, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(s.requests[5].newTokens, 0u);
  EXPECT_EQ(requestInputTokens(s).back(), 100u);  // five summaries of 20 tokens
}

TEST(SessionGraph, SharedPrefixGroupsAreSeededAndLeadEveryRequest) {
  auto document = validDocument();
  document["requests"]["prompt"] = {{"source", "synthetic"}, {"shared_prefix", {{"groups", 3}, {"tokens", 50}}}};
  const auto spec = parseWorkload(document);
  std::vector<int> perGroup(3, 0);
  for (uint64_t id = 0; id < 300; ++id) {
    const SessionPlan s = drawSession(spec, id);
    ASSERT_EQ(s.requests.size(), 1u);  // single shape still carries the prefix
    ASSERT_LT(s.prefixGroup, 3u);
    EXPECT_EQ(s.prefixTokens, 50u);
    EXPECT_EQ(drawSession(spec, id).prefixGroup, s.prefixGroup);
    ++perGroup[s.prefixGroup];
    EXPECT_EQ(requestInputTokens(s).front(), 150u);
  }
  for (int n : perGroup) EXPECT_GT(n, 60);
}

TEST(SessionGraph, PlannerIsDeterministicAndSingleStaysPlain) {
  const auto spec = specWithSession({{"shape", "multi_turn"}, {"turns", {{"dist", "uniform"}, {"min", 1}, {"max", 8}}},
                                 {"think_time_s", {{"dist", "exponential"}, {"mean", 2}}}});
  Planner a(spec), b(spec);
  SessionPlan x, y;
  while (a.next(x)) {
    ASSERT_TRUE(b.next(y));
    ASSERT_EQ(x.requests.size(), y.requests.size());
    for (size_t i = 0; i < x.requests.size(); ++i) EXPECT_EQ(x.requests[i].delayNs, y.requests[i].delayNs);
  }
  EXPECT_TRUE(drawSession(parseWorkload(validDocument()), 0).requests.empty());
}

TEST(SessionGraph, SecondsDistributionsClampAndAllowFractions) {
  SecondsDist d;
  d.kind = DistKind::Exponential;
  d.p1 = 10;
  d.clampMin = 0.5;
  d.clampMax = 2.5;
  plumbline::util::Rng rng(4);
  for (int i = 0; i < 1000; ++i) {
    const int64_t ns = sampleDelayNs(d, rng);
    EXPECT_GE(ns, 500'000'000);
    EXPECT_LE(ns, 2'500'000'000);
  }
}

TEST(SessionEstimate, DerivedRatesFollowRequestsPerSession) {
  const auto spec = specWithSession({{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 4}}},
                                 {"think_time_s", kZero}});
  const SessionEstimate e = estimateSessions(spec, 100);
  EXPECT_DOUBLE_EQ(e.requestsPerSession, 4.0);
  EXPECT_DOUBLE_EQ(e.sessionRate, 10.0);
  EXPECT_DOUBLE_EQ(e.requestRate, 40.0);
  EXPECT_DOUBLE_EQ(e.inputTokensPerSession, 1120.0);
  EXPECT_DOUBLE_EQ(e.outputTokensPerSession, 80.0);
  EXPECT_DOUBLE_EQ(e.inputTokensPerS, 11200.0);
  EXPECT_DOUBLE_EQ(e.outputTokensPerS, 800.0);

  const auto uniform = specWithSession({{"shape", "summarize"}, {"chunks", {{"dist", "uniform"}, {"min", 1}, {"max", 5}}}});
  const SessionEstimate u = estimateSessions(uniform);
  EXPECT_NEAR(u.requestsPerSession, 4.0, 0.05);  // mean chunks 3, plus the reduce
  EXPECT_NEAR(u.requestRate, 40.0, 0.5);
}

TEST(SessionEstimate, PlanPreviewCountsEveryRequestAndShowsTheSessionBlock) {
  const auto spec = specWithSession({{"shape", "tree"}, {"branching", 2}, {"depth", 2}});
  const PlanPreview p = buildPreview(spec);
  EXPECT_EQ(p.requests, p.sessions * 7);
  EXPECT_DOUBLE_EQ(p.session.requestsPerSession, 7.0);
  const std::string text = formatPreview(p, spec);
  EXPECT_NE(text.find("7.00 requests/session"), std::string::npos) << text;
  EXPECT_NE(text.find("derived request rate 70.00/s"), std::string::npos) << text;
  const auto json = previewJson(p, spec);
  EXPECT_DOUBLE_EQ(json["session"]["derived_request_rate"].get<double>(), 70.0);
}

// QA: requests.sampling.max_tokens caps what every request asks for, but the plan's output table
// and totals showed the drawn lengths (11,273 output tokens planned, 5 per request sent).
TEST(SessionEstimate, ThePlanShowsOutputsAsMaxTokensCapsThem) {
  auto doc = plumbline::testing::validDocument();  // output 20 per request
  doc["requests"]["sampling"]["max_tokens"] = 5;
  const WorkloadSpec spec = parseWorkload(doc);
  const PlanPreview p = buildPreview(spec);
  EXPECT_EQ(p.output.max, 5u);
  EXPECT_EQ(p.totalOutputTokens, p.requests * 5);
  EXPECT_DOUBLE_EQ(p.session.outputTokensPerSession, 5.0);
  EXPECT_NE(formatPreview(p, spec).find("fixed+max_tokens"), std::string::npos)
      << formatPreview(p, spec);
}
