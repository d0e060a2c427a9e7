// A run against a mock that streams four tokens an event after the first (tokens_per_event, as
// a server streaming every N tokens): the inter-token gaps are per event, four ITLs long; the
// time per output token (tpot) is the mock's ITL; the summary, the report and the database say
// how many tokens an event carried, by the server's usage.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tests/integration/child_process.h"
#include "tests/integration/db_query.h"
#include "tests/integration/embedded_workload.h"
#include "tests/integration/machine_holds.h"
#include "tests/integration/timing_budget.h"
#include "tests/integration/workload_run.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::queryInt;
using plumbline::test::TempDir;

namespace {
/// Streams of 21 tokens (20 ms TTFT, 5 ms a token) at 20/s against the embedded mock, sending
/// `tokensPerEvent` tokens an event after the first when set.
plumbline::test::WorkloadRun runStreams(const TempDir& dir, double durationS,
                                        std::optional<int> tokensPerEvent) {
  json workload = plumbline::test::embeddedStreamWorkload({.name = "tokens per event",
                                                           .ttftMs = 20,
                                                           .itlMs = 5,
                                                           .seed = 5,
                                                           .rate = 20,
                                                           .durationS = durationS,
                                                           .inputTokens = 16,
                                                           .outputTokens = 21});
  if (tokensPerEvent) workload["target"]["mock"]["tokens_per_event"] = *tokensPerEvent;
  return plumbline::test::runWorkloadDocument(dir, workload);
}
}  // namespace

TEST(TokensPerEventRun, GapsArePerEventAndTpotIsPerToken) {
  TempDir dir;
  const auto run = runStreams(dir, 2.5, 4);
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(run.exitCode, run.summary))
      << "exit " << run.exitCode << "\n"
      << run.output;
  const json& s = run.summary;
  ASSERT_EQ(s["completed"], 50) << run.output;
  EXPECT_EQ(s["token_count_source"], "server");
  // 21 tokens: the first alone, then five events of four: 20 tokens after the first over 5 gaps.
  EXPECT_DOUBLE_EQ(s["tokens_per_event"].get<double>(), 4.0) << s.dump(2);
  EXPECT_EQ(s["itl_ms"]["count"], 50 * 5);
  EXPECT_EQ(s["tpot_ms"]["count"], 50);
  const std::string db = dir.file("runs.db");
  EXPECT_EQ(queryInt(db,
                     "SELECT count(*) FROM requests WHERE output_tokens_server = 21 AND "
                     "output_tokens_client = 6"),
            50);
  EXPECT_EQ(queryInt(db,
                     "SELECT count(*) FROM histograms WHERE metric = 'tpot' AND "
                     "window_idx = -1"),
            1);
  // Each window's row has the time per output token of the streams that ended in it.
  EXPECT_EQ(queryInt(db,
                     "SELECT count(*) FROM windows WHERE completed > 0 AND "
                     "(tpot_p50_ms IS NULL OR tpot_p99_ms < tpot_p50_ms)"),
            0);
  EXPECT_GE(queryInt(db, "SELECT count(*) FROM windows WHERE tpot_p50_ms IS NOT NULL"), 2);
  EXPECT_NE(run.output.find("tpot (per token)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("tokens per event: 4.00 by the server's usage"), std::string::npos)
      << run.output;
  // The export has what the figures came from: each request's counts and token instants.
  ASSERT_TRUE(run.exported.contains("requests")) << run.exported.dump().substr(0, 400);
  for (const json& r : run.exported["requests"])
    EXPECT_EQ(r["output_tokens_server"], 21) << r.dump();
  ChildProcess show({PLUMBLINE_BIN, "runs", "show", "1", "--db", db}, dir.file("show.txt"));
  ASSERT_EQ(show.wait(20'000), 0) << show.output();
  EXPECT_NE(show.output().find("tokens per event: 4.00"), std::string::npos) << show.output();
  if (!plumbline::test::kTimingChecked) return;
  const double itl = s["itl_ms"]["p50"].get<double>(), tpot = s["tpot_ms"]["p50"].get<double>();
  std::printf("inter-token p50 %.3f ms, tpot p50 %.3f ms\n", itl, tpot);
  EXPECT_NEAR(itl, 4 * 5, 2) << s.dump(2);
  EXPECT_NEAR(tpot, 5, 0.5) << s.dump(2);
  EXPECT_EQ(queryInt(db, "SELECT count(*) FROM windows WHERE tpot_p50_ms NOT BETWEEN 4.5 AND 5.5"),
            0);
}

// The same workload against a mock that sends a token an event: the two figures agree, and
// nothing is said about tokens per event.
TEST(TokensPerEventRun, ATokenAnEventHasTpotEqualToTheGaps) {
  TempDir dir;
  const auto run = runStreams(dir, 1, std::nullopt);
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(run.exitCode, run.summary))
      << "exit " << run.exitCode << "\n"
      << run.output;
  const json& s = run.summary;
  ASSERT_EQ(s["completed"], 20) << run.output;
  EXPECT_DOUBLE_EQ(s["tokens_per_event"].get<double>(), 1.0) << s.dump(2);
  EXPECT_EQ(s["itl_ms"]["count"], 20 * 20);
  EXPECT_EQ(run.output.find("tokens per event"), std::string::npos) << run.output;
}
