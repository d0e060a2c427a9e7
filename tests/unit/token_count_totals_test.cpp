// Both sides' token counts survive aggregation separately, and the summary JSON labels them.
#include <gtest/gtest.h>

#include <sstream>

#include "core/engine/terminal_report.h"
#include "core/metrics/run_aggregator.h"
#include "core/store/runs_command.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

using namespace plumbline::metrics;

namespace {
RequestRecord completed(int32_t inServer, int32_t outServer, int32_t inClient, int32_t outClient) {
  RequestRecord r;
  r.plannedNs = 0;
  r.sendNs = 1;
  r.firstTokenNs = 2;
  r.endNs = 3;
  r.inputTokensServer = inServer;
  r.outputTokensServer = outServer;
  r.inputTokensClient = inClient;
  r.outputTokensClient = outClient;
  return r;
}
}  // namespace

TEST(TokenCountTotals, ServerAndClientTotalsAreKeptApart) {
  RunAggregator a;
  a.addPlanned(0, 4);
  a.addRecord(completed(100, 10, 90, 11));
  a.addRecord(completed(-1, -1, 50, 5));  // no usage: only the client's counts
  a.addRecord(completed(30, 3, 30, -1));  // no client output count
  RequestRecord failed = completed(1000, 1000, 1000, 1000);
  failed.error = ErrorClass::Timeout;  // failed requests count on neither side
  a.addRecord(failed);
  a.takeAllWindows();
  const RunSummary s = a.summarize(1.0, 4.0, VerdictPolicy{});
  EXPECT_EQ(s.serverInputTokens, 130u);
  EXPECT_EQ(s.serverOutputTokens, 13u);
  EXPECT_EQ(s.clientInputTokens, 170u);
  EXPECT_EQ(s.clientOutputTokens, 16u);
  EXPECT_EQ(s.tokenCountSource, "mixed");
}

TEST(TokenCountTotals, SummaryJsonAndReportLabelBothSides) {
  RunSummary s;
  s.tokenCountSource = "server";
  s.clientInputBasis = "tokenizer:q.json";
  s.clientOutputBasis = "tokenizer:q.json";
  s.clientInputCount = "planned prompt length (tokenizer: q.json)";
  s.clientOutputCount = "reply text as received, tokenized (tokenizer: q.json)";
  s.serverInputTokens = 1;
  s.serverOutputTokens = 2;
  s.clientInputTokens = 3;
  s.clientOutputTokens = 4;
  s.requestsWithServerCounts = 5;
  s.completed = 5;
  const nlohmann::json j = s.toJson();
  const nlohmann::json& c = j["token_counts"];
  EXPECT_EQ(c["used_for_rates"], "server");
  EXPECT_EQ(c["server"], (nlohmann::json{{"input", 1}, {"output", 2}}));
  EXPECT_EQ(c["client"], (nlohmann::json{{"input", 3}, {"output", 4}}));
  EXPECT_EQ(c["client_output_basis"], "tokenizer:q.json");
  const RunSummary back = RunSummary::fromJson(j);
  EXPECT_EQ(back.toJson(), j);
  const std::string report = plumbline::engine::formatRunReport(s, {});
  EXPECT_NE(report.find("token counts used for the rates: the server's (usage)"), std::string::npos) << report;
  EXPECT_NE(report.find("server (usage): in 1  out 2  (5 requests)"), std::string::npos) << report;
  EXPECT_NE(report.find("client:         in 3  out 4"), std::string::npos) << report;
  EXPECT_NE(report.find("client out: reply text as received, tokenized (tokenizer: q.json)"), std::string::npos);
  s.tokenCountSource = "client";
  EXPECT_NE(plumbline::engine::formatRunReport(s, {}).find("the client's (no request had usage)"), std::string::npos);
}

// QA: a run where nothing replied printed "the server's (usage) … (0 requests)" and tokens/s of
// 0.0; a non-streaming run without a tokenizer printed "client: … out 0" for a count not made.
TEST(TokenCountTotals, TheReportSaysWhatWasNotCounted) {
  RunSummary none;
  none.tokenCountSource = "server";
  const std::string empty = plumbline::engine::formatRunReport(none, {});
  EXPECT_NE(empty.find("token counts: none (no request completed)"), std::string::npos) << empty;
  EXPECT_NE(empty.find("tokens/s  -  (no request completed)"), std::string::npos) << empty;
  EXPECT_EQ(empty.find("server (usage)"), std::string::npos) << empty;
  RunSummary body;
  body.completed = 3;
  body.tokenCountSource = "server";
  body.requestsWithServerCounts = 3;
  body.clientInputTokens = 30;
  body.clientInputCount = "planned prompt length (approximate: 1 word per token)";
  const std::string report = plumbline::engine::formatRunReport(body, {});
  EXPECT_NE(report.find("client:         in 30  out -\n"), std::string::npos) << report;
}

// QA 24 D7: a non-streaming run without a tokenizer printed "client: in 5000 out 0" and stored
// token_counts.client.output 0 beside client_output_basis "none": nothing counted it.
TEST(TokenCountTotals, AClientOutputCountNeverMadeIsNullNotZero) {
  RunAggregator a;
  a.addPlanned(0, 2);
  a.addRecord(completed(100, 10, 100, -1));
  a.addRecord(completed(100, 10, 100, -1));
  a.takeAllWindows();
  RunSummary s = a.summarize(1.0, 2.0, VerdictPolicy{});
  s.clientOutputCount = "none (not streaming)";
  s.clientOutputBasis = "none";
  EXPECT_FALSE(s.clientOutputTokens.has_value());
  const nlohmann::json j = s.toJson();
  EXPECT_TRUE(j["token_counts"]["client"]["output"].is_null()) << j["token_counts"].dump();
  EXPECT_EQ(RunSummary::fromJson(j).toJson(), j);
  const std::string report = plumbline::engine::formatRunReport(s, {});
  EXPECT_NE(report.find("client:         in 200  out -\n"), std::string::npos) << report;
  a.addRecord(completed(100, 10, 100, 0));  // counted, and none: a real 0
  EXPECT_EQ(a.summarize(1.0, 2.0, VerdictPolicy{}).clientOutputTokens, 0u);
}

// QA 24 D7: "over 10.00 s, to the last reply" when the last reply ended at 9.96 s: the span was
// the schedule's length.
TEST(TokenCountTotals, TheTokenSpanIsLabelledByWhatItWas) {
  RunSummary s;
  s.completed = 1;
  s.durationS = 10;
  s.tokensSpanS = 10;
  std::string report = plumbline::engine::formatRunReport(s, {});
  EXPECT_NE(report.find("over 10.00 s, the schedule's length (the last reply ended within it)"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("last reply  ("), std::string::npos) << report;
  s.tokensSpanS = 10.14;
  report = plumbline::engine::formatRunReport(s, {});
  EXPECT_NE(report.find("over 10.14 s, to the end of the last reply  ("), std::string::npos)
      << report;
}

TEST(TokenCountTotals, RunsShowLabelsTheTokenSpanByWhatItWas) {
  plumbline::store::testing::TempDir dir;
  const std::string path = dir.file("runs.db");
  plumbline::fixtures::FixtureRun within;  // 5 s of sends, every reply over by then
  within.stages = {{10, 4.5}};
  within.stages.push_back({0.5, 0.5});
  const int64_t id = plumbline::fixtures::writeFixtureRun(path, within);
  std::ostringstream out, err;
  ASSERT_EQ(plumbline::store::runsShow(path, id, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("over 5.00 s, the schedule's length (the last reply ended within it)"),
            std::string::npos)
      << out.str();
}
