// Goodput says what it can vouch for: a non-streaming run under a TTFT or inter-token limit
// is not judged (no first token to time), not failed; the share is of every planned request.
#include <gtest/gtest.h>

#include <sstream>

#include "core/compare/compare_command.h"
#include "core/compare/compare_report.h"
#include "core/compare/comparison.h"
#include "core/store/database.h"
#include "metric_row_lookup.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

namespace plumbline::compare {
namespace {

using fixtures::FixtureRun;
using store::testing::TempDir;

using testing::metricRow;

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

/// Slo{} with a TTFA limit and, optionally, a TTFT one.
Slo answerSlo(double ttfaMs, std::optional<double> ttftMs = std::nullopt) {
  Slo slo;
  slo.ttfaMs = ttfaMs;
  slo.ttftMs = ttftMs;
  return slo;
}

metrics::RequestRecord streamedReply(int64_t ttftMs, int64_t ttfaMs) {
  metrics::RequestRecord r;
  r.plannedNs = 1'000'000'000;
  r.sendNs = r.plannedNs + 20'000;
  r.firstTokenNs = r.plannedNs + ttftMs * 1'000'000;
  r.firstAnswerNs = ttfaMs < 0 ? -1 : r.plannedNs + ttfaMs * 1'000'000;
  r.lastTokenNs = r.plannedNs + 200'000'000;
  r.endNs = r.lastTokenNs + 1'000'000;
  r.outputTokensClient = 20;
  r.httpStatus = 200;
  return r;
}

// For a reasoning model TTFT is the first thinking token: a TTFA limit judges the first answer
// token, from the planned time, and a stream that ended still thinking never answered.
TEST(Goodput, ATtfaLimitJudgesTheFirstAnswerTokenAndAStreamWithoutOneFailsIt) {
  GoodputCounter counter(answerSlo(100, 100));
  EXPECT_TRUE(counter.meets(streamedReply(30, 90)));
  EXPECT_FALSE(counter.meets(streamedReply(30, 110)));  // its TTFT (30 ms) met the limit
  EXPECT_FALSE(counter.meets(streamedReply(30, -1)));   // no answer token
  EXPECT_TRUE(GoodputCounter(answerSlo(100, 100)).meets(streamedReply(30, 100)));
  EXPECT_TRUE(GoodputCounter(Slo{100.0, std::nullopt, std::nullopt})
                  .meets(streamedReply(30, -1)));  // without a TTFA limit it met the SLO

  TempDir dir;
  const std::string path = dir.file("runs.db");
  FixtureRun thinker;  // first token 50 ms after the planned time, the answer 40 ms later
  thinker.thinkMs = 40;
  fixtures::writeFixtureRun(path, FixtureRun{});
  fixtures::writeFixtureRun(path, thinker);
  const Comparison c = buildComparison(store::RunReader(path), {1, 2}, answerSlo(70, 70));
  EXPECT_EQ(c.goodput[0].met, 50u);
  EXPECT_EQ(c.goodput[1].met, 0u);
  EXPECT_TRUE(c.goodput[1].judged);
  EXPECT_FALSE(c.goodput[1].partial());
  std::ostringstream text, json, err;
  ASSERT_EQ(runsCompare(path, {1, 2}, answerSlo(70), "text", text, err), 0) << err.str();
  EXPECT_NE(text.str().find("TTFA (first answer token) from planned <= 70 ms"), std::string::npos)
      << text.str();
  ASSERT_EQ(runsCompare(path, {1, 2}, answerSlo(95), "json", json, err), 0) << err.str();
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["slo"]["ttfa_ms"], 95);
  EXPECT_EQ(j["goodput"][1]["met"], 50);
}

TEST(Goodput, ATtfaLimitDoesNotJudgeANonStreamingRun) {
  StreamingAndNot db;
  const Comparison c = buildComparison(store::RunReader(db.path), {1, 2}, answerSlo(500));
  EXPECT_TRUE(c.goodput[0].judged);
  EXPECT_FALSE(c.goodput[1].judged);
  EXPECT_EQ(c.goodput[1].unjudgedReason, "no TTFA without streaming");
  Slo withE2e = answerSlo(500);
  withE2e.e2eMs = 300;
  const Comparison partial = buildComparison(store::RunReader(db.path), {1, 2}, withE2e);
  EXPECT_EQ(partial.goodput[1].met, 50u);
  EXPECT_NE(
      goodputText(partial.goodput[1]).find("judged on end-to-end only (no TTFA without streaming)"),
      std::string::npos)
      << goodputText(partial.goodput[1]);
}

// A run stored before answer tokens were timed has none: its TTFA limit is not judged rather
// than failed by every request, and it is judged on the other limits, saying which.
TEST(Goodput, ARunStoredBeforeAnswerTokensWereTimedIsNotJudgedOnTtfa) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  fixtures::writeFixtureRun(path, FixtureRun{});
  fixtures::writeFixtureRun(path, FixtureRun{});
  store::Database::open(path, store::Database::Mode::ReadWrite)
      .exec(
          "UPDATE requests SET first_answer_ns = NULL WHERE run_id = 2; "
          "DELETE FROM histograms WHERE run_id = 2 AND metric = 'ttfa'; "
          "UPDATE runs SET summary_json = json_remove(summary_json, '$.ttfa_ms', "
          "'$.thought_first') WHERE id = 2");
  const Comparison c = buildComparison(store::RunReader(path), {1, 2}, answerSlo(500, 500));
  EXPECT_EQ(c.goodput[0].met, 50u);
  EXPECT_TRUE(c.goodput[1].judged);  // was: 0 of 50, every request "without an answer"
  EXPECT_EQ(c.goodput[1].met, 50u);
  EXPECT_TRUE(c.goodput[1].partial());
  EXPECT_NE(goodputText(c.goodput[1])
                .find("judged on TTFT only (no TTFA in a run stored before answer tokens were "
                      "timed)"),
            std::string::npos)
      << goodputText(c.goodput[1]);
  EXPECT_EQ(valueText(metricRow(c, "goodput_pct"), 1), "100 (judged on TTFT only)");
  const Comparison alone = buildComparison(store::RunReader(path), {1, 2}, answerSlo(500));
  EXPECT_FALSE(alone.goodput[1].judged);
}

TEST(Goodput, AnEndToEndLimitMustBePositive) {
  StreamingAndNot db;
  std::ostringstream out, err;
  EXPECT_EQ(runsCompare(db.path, {1, 2}, Slo{std::nullopt, std::nullopt, 0.0}, "text", out, err),
            2);
  EXPECT_NE(err.str().find("--slo-e2e-ms must be a positive"), std::string::npos) << err.str();
  EXPECT_EQ(runsCompare(db.path, {1, 2}, answerSlo(-5), "text", out, err), 2);
  EXPECT_NE(err.str().find("--slo-ttfa-ms must be a positive"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace plumbline::compare
