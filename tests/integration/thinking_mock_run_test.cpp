// A run against a mock that thinks before answering (thinking_tokens): TTFT times the first
// thinking token, TTFA the first answer token, thinking_tokens × ITL later, per request in the
// database and in the summary, and every stream is counted as having thought first.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
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

TEST(ThinkingMockRun, TtfaIsTtftPlusTheThinkingTokensPacedAtTheItl) {
  TempDir dir;
  json workload = plumbline::test::embeddedStreamWorkload({.name = "thinking mock",
                                                           .ttftMs = 20,
                                                           .itlMs = 5,
                                                           .seed = 5,
                                                           .rate = 20,
                                                           .durationS = 2.5,
                                                           .inputTokens = 16,
                                                           .outputTokens = 14});
  workload["target"]["mock"]["thinking_tokens"] = 10;
  std::ofstream(dir.file("w.json")) << workload.dump();
  ChildProcess run({PLUMBLINE_BIN, "run", dir.file("w.json"), "--db", dir.file("runs.db"),
                    "--workers", "1", "--summary-json", dir.file("s.json")},
                   dir.file("out.txt"));
  const int code = run.wait(60'000);
  std::ifstream in(dir.file("s.json"));
  ASSERT_TRUE(in) << "exit " << code << "\n" << run.output();
  const json s = json::parse(in);
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(code, s)) << "exit " << code << "\n"
                                                                << run.output();
  EXPECT_EQ(s["completed"], 50) << s.dump(2);
  EXPECT_EQ(s["thought_first"], s["completed"]);
  EXPECT_EQ(s["ttfa_ms"]["count"], 50);
  EXPECT_NE(run.output().find("ttfa (answer)"), std::string::npos) << run.output();
  EXPECT_NE(run.output().find("reasoning: 50 of 50 streams thought before answering"),
            std::string::npos)
      << run.output();
  const std::string db = dir.file("runs.db");
  EXPECT_EQ(queryInt(db, "SELECT count(*) FROM requests WHERE first_answer_ns > first_token_ns"),
            50);
  // Every window in which a stream answered has its TTFA, after its TTFT (10 tokens later).
  EXPECT_GE(queryInt(db, "SELECT count(*) FROM windows WHERE ttfa_p50_ms IS NOT NULL"), 2);
  EXPECT_EQ(queryInt(db,
                     "SELECT count(*) FROM windows WHERE (ttfa_p50_ms IS NULL) != "
                     "(ttft_p50_ms IS NULL) OR ttfa_p50_ms <= ttft_p50_ms "
                     "OR ttfa_p99_ms < ttfa_p50_ms"),
            0);
  // And its latencies from planned, never less than the service view's.
  EXPECT_EQ(queryInt(db,
                     "SELECT count(*) FROM windows WHERE (e2e_from_planned_p50_ms IS NULL) != "
                     "(e2e_p50_ms IS NULL) OR ttft_from_planned_p50_ms < ttft_p50_ms - 0.001"),
            0);
  if (!plumbline::test::kTimingChecked) return;
  const double ttft = s["ttft_ms"]["p50"].get<double>(), ttfa = s["ttfa_ms"]["p50"].get<double>();
  std::printf("ttft p50 %.2f ms, ttfa p50 %.2f ms\n", ttft, ttfa);
  EXPECT_GE(ttft, 20 - 2) << s.dump(2);
  EXPECT_LE(ttft, 20 + 15) << s.dump(2);
  EXPECT_GE(ttfa, 20 + 10 * 5 - 2) << s.dump(2);
  EXPECT_LE(ttfa, 20 + 10 * 5 + 15) << s.dump(2);
  // Each request's answer came 10 tokens × 5 ms after its first thinking token. The mock paces
  // those tokens on this machine's CPUs, so this is judged with nothing building beside it
  // (tests/CMakeLists.txt: a CI run with the ASan build beside it had one of 50 outside).
  EXPECT_EQ(queryInt(db,
                     "SELECT count(*) FROM requests WHERE first_answer_ns - first_token_ns "
                     "BETWEEN 45000000 AND 65000000"),
            50);
}

// QA 24 D4: a conversation resends each reply's answer, not its thinking; the client's input
// count of a later turn counted the thinking deltas too (70 and 110 against the server's 66 and
// 102). Without a tokenizer both sides count one token per word the mock sent, so they agree.
TEST(ThinkingMockRun, LaterTurnsCountOnlyTheResentAnswerAsInput) {
  TempDir dir;
  json workload = plumbline::test::embeddedStreamWorkload(
      {.name = "thinking turns", .ttftMs = 5, .itlMs = 1, .inputTokens = 30, .outputTokens = 10});
  workload["verdict"]["send_lag_tolerance_ms"] = 1000;  // about counts, not timing
  workload["target"]["mock"]["thinking_tokens"] = 4;
  workload["session"] = {{"shape", "multi_turn"},
                         {"turns", {{"dist", "fixed"}, {"value", 3}}},
                         {"think_time_s", {{"dist", "fixed"}, {"value", 0}}}};
  const plumbline::test::WorkloadRun run = plumbline::test::runWorkloadDocument(dir, workload);
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(run.exitCode, run.summary)) << run.output;
  const json& requests = run.exported["requests"];
  ASSERT_EQ(requests.size(), 30u);  // 10 conversations of 3 turns
  for (const json& q : requests) {
    ASSERT_EQ(q["error_class"], "none") << q.dump();
    // 30, then 30 + the 6-token answer + 30 = 66, then 66 + 6 + 30 = 102.
    EXPECT_EQ(q["input_tokens_client"], 30 + 36 * q["turn"].get<int>()) << q.dump();
    EXPECT_EQ(q["input_tokens_client"], q["input_tokens_server"]) << q.dump();
  }
}
