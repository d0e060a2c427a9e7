// Goodput says what it can vouch for: a non-streaming run under a TTFT or inter-token limit
// is not judged (no first token to time), not failed; the share is of every planned request.
#include <gtest/gtest.h>

#include <sstream>

#include "core/compare/compare_command.h"
#include "core/compare/compare_report.h"
#include "core/compare/comparison.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

namespace plumbline::compare {
namespace {

using fixtures::FixtureRun;
using store::testing::TempDir;

const MetricRow& metricRow(const Comparison& c, const std::string& key) {
  for (const auto& r : c.metrics)
    if (r.key == key) return r;
  throw std::runtime_error("no metric " + key);
}

/// Run 1 streams, run 2 does not; each has 50 requests, all of them succeeding.
struct StreamingAndNot {
  TempDir dir;
  std::string path = dir.file("runs.db");
  StreamingAndNot() {
    FixtureRun whole;
    whole.stream = false;
    fixtures::writeFixtureRun(path, FixtureRun{});
    fixtures::writeFixtureRun(path, whole);
  }
};

TEST(Goodput, TtftLimitsDoNotJudgeANonStreamingRun) {
  StreamingAndNot db;
  const Comparison c =
      buildComparison(store::RunReader(db.path), {1, 2}, Slo{500.0, 50.0, std::nullopt});
  ASSERT_EQ(c.goodput.size(), 2u);
  EXPECT_TRUE(c.goodput[0].judged);
  EXPECT_EQ(c.goodput[0].met, 50u);
  EXPECT_FALSE(c.goodput[1].judged);  // was: judged, 0 of 50
  EXPECT_EQ(c.goodput[1].unjudgedReason, "no TTFT without streaming");
  const MetricRow& share = metricRow(c, "goodput_pct");
  EXPECT_FALSE(share.values[1].has_value());
  EXPECT_EQ(valueText(share, 1), "n/a (no TTFT without streaming)");
  EXPECT_FALSE(share.absoluteDelta(1).has_value());  // was: −100 pp

  std::ostringstream text, err;
  ASSERT_EQ(runsCompare(db.path, {1, 2}, Slo{500.0, 50.0, std::nullopt}, "text", text, err), 0)
      << err.str();
  EXPECT_NE(text.str().find("n/a (no TTFT without streaming)"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("-100"), std::string::npos) << text.str();
  std::ostringstream json;
  ASSERT_EQ(runsCompare(db.path, {1, 2}, Slo{500.0, 50.0, std::nullopt}, "json", json, err), 0);
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_TRUE(j["goodput"][1]["fraction"].is_null());
  EXPECT_TRUE(j["goodput"][1]["met"].is_null());
  EXPECT_EQ(j["goodput"][1]["not_judged_reason"], "no TTFT without streaming");
  EXPECT_TRUE(j["goodput"][0]["not_judged_reason"].is_null());
}

TEST(Goodput, AnEndToEndLimitJudgesANonStreamingRunAndSaysSo) {
  StreamingAndNot db;
  // Every fixture reply ends ~241 ms after its planned time.
  const Comparison loose =
      buildComparison(store::RunReader(db.path), {1, 2}, Slo{500.0, std::nullopt, 300.0});
  EXPECT_TRUE(loose.goodput[1].judged);
  EXPECT_TRUE(loose.goodput[1].partial());
  EXPECT_EQ(loose.goodput[1].met, 50u);
  EXPECT_EQ(loose.goodput[0].met, 50u);
  EXPECT_NE(
      goodputText(loose.goodput[1]).find("judged on end-to-end only (no TTFT without streaming)"),
      std::string::npos);
  EXPECT_FALSE(metricRow(loose, "goodput_pct").absoluteDelta(1).has_value());  // not like for like
  const Comparison tight =
      buildComparison(store::RunReader(db.path), {1, 2}, Slo{std::nullopt, std::nullopt, 200.0});
  EXPECT_EQ(tight.goodput[0].met, 0u);
  EXPECT_EQ(tight.goodput[1].met, 0u);
  EXPECT_FALSE(tight.goodput[1].partial());  // an e2e limit alone judges both runs alike
  ASSERT_TRUE(metricRow(tight, "goodput_pct").absoluteDelta(1).has_value());
}

TEST(Goodput, TheShareIsOfPlannedRequestsNeverSentOnesIncluded) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  FixtureRun behind;
  behind.stages = {{10, 10}};  // 100 planned
  behind.notSent = 40;         // of which 40 never left
  fixtures::writeFixtureRun(path, FixtureRun{});
  fixtures::writeFixtureRun(path, behind);
  const Comparison c =
      buildComparison(store::RunReader(path), {1, 2}, Slo{500.0, 50.0, std::nullopt});
  const Goodput& g = c.goodput[1];
  EXPECT_EQ(g.planned, 100u);
  EXPECT_EQ(g.requests, 60u);
  EXPECT_EQ(g.notSent(), 40u);
  EXPECT_EQ(g.met, 60u);
  EXPECT_DOUBLE_EQ(g.fraction(), 0.6);  // was 60 of 60: 100 %
  EXPECT_NEAR(*metricRow(c, "goodput_pct").values[1], 60.0, 1e-9);
  EXPECT_EQ(metricRow(c, "goodput_pct").label, "goodput (% of planned)");
  EXPECT_EQ(goodputText(g).rfind("60 of 100 planned (60.0%; 40 never sent), ", 0), 0u)
      << goodputText(g);

  std::ostringstream text, json, err;
  ASSERT_EQ(runsCompare(path, {1, 2}, Slo{500.0, std::nullopt, std::nullopt}, "text", text, err),
            0);
  EXPECT_NE(text.str().find("as a share of planned requests"), std::string::npos) << text.str();
  ASSERT_EQ(runsCompare(path, {1, 2}, Slo{500.0, std::nullopt, std::nullopt}, "json", json, err),
            0);
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["goodput"][1]["planned"], 100);
  EXPECT_EQ(j["goodput"][1]["not_sent"], 40);
  EXPECT_EQ(j["goodput"][1]["fraction_of"], "planned");
  EXPECT_DOUBLE_EQ(j["goodput"][1]["fraction"].get<double>(), 0.6);
}

/// A stream of 11 tokens (by the server's usage) in 5 events from 30 ms to 80 ms after its
/// planned send, counted by the client as `clientTokens` (5 chunks, or 11 by a tokenizer).
metrics::RequestRecord burstyStream(int32_t serverTokens, int32_t clientTokens) {
  metrics::RequestRecord r;
  r.plannedNs = r.sendNs = 0;
  r.firstByteNs = r.firstTokenNs = 30'000'000;
  r.lastTokenNs = 80'000'000;
  r.endNs = 85'000'000;
  r.httpStatus = 200;
  r.outputTokensServer = serverTokens;
  r.outputTokensClient = clientTokens;
  return r;
}

// QA 24 D2: the gap was divided by the client's deltas: 50 ms / 4 = 12.5 ms failed a 10 ms
// limit without a tokenizer, and 50 / 10 = 5 ms met it with one, against the same server.
TEST(Goodput, TheGapLimitDividesByTheServersTokensWhereItGaveThem) {
  const Slo itl{std::nullopt, 10.0, std::nullopt};
  GoodputCounter chunks(itl), tokenizer(itl), noUsage(itl);
  chunks.add(burstyStream(11, 5));
  tokenizer.add(burstyStream(11, 11));
  noUsage.add(burstyStream(-1, 5));  // no usage: the client's count is all there is
  EXPECT_EQ(chunks.result(1).met, 1u);
  EXPECT_EQ(tokenizer.result(1).met, 1u);
  EXPECT_EQ(noUsage.result(1).met, 0u);
  EXPECT_EQ(chunks.result(1).itlTokenBasis, "server");
  EXPECT_EQ(noUsage.result(1).itlTokenBasis, "client");
  noUsage.add(burstyStream(11, 5));
  EXPECT_EQ(noUsage.result(1).itlTokenBasis, "mixed");
  EXPECT_EQ(GoodputCounter(Slo{500.0, std::nullopt, std::nullopt}).result(1).itlTokenBasis, "");
}

TEST(Goodput, RunsWhoseGapsWereJudgedPerDifferentCountsSaySo) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  FixtureRun clientOnly;
  clientOnly.serverCounts = false;  // no usage: gaps per content chunk
  fixtures::writeFixtureRun(path, FixtureRun{});
  fixtures::writeFixtureRun(path, clientOnly);
  fixtures::writeFixtureRun(path, FixtureRun{});
  const Slo itl{std::nullopt, 50.0, std::nullopt};
  const Comparison differ = buildComparison(store::RunReader(path), {1, 2}, itl);
  EXPECT_NE(goodputText(differ.goodput[0]).find("; gaps per token of the server's usage"),
            std::string::npos)
      << goodputText(differ.goodput[0]);
  EXPECT_NE(goodputText(differ.goodput[1]).find("; gaps per token of the client's count"),
            std::string::npos)
      << goodputText(differ.goodput[1]);
  const Comparison alike = buildComparison(store::RunReader(path), {1, 3}, itl);
  EXPECT_EQ(goodputText(alike.goodput[1]).find("gaps per token"), std::string::npos);
  std::ostringstream json, err;
  ASSERT_EQ(runsCompare(path, {1, 2}, itl, "json", json, err), 0) << err.str();
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["goodput"][0]["itl_token_basis"], "server");
  EXPECT_EQ(j["goodput"][1]["itl_token_basis"], "client");
}

TEST(Goodput, AnEndToEndLimitMustBePositive) {
  StreamingAndNot db;
  std::ostringstream out, err;
  EXPECT_EQ(runsCompare(db.path, {1, 2}, Slo{std::nullopt, std::nullopt, 0.0}, "text", out, err),
            2);
  EXPECT_NE(err.str().find("--slo-e2e-ms must be a positive"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace plumbline::compare
