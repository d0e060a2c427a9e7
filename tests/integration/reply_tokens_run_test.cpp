// Runs with a prompt tokenizer against the embedded mock: the client counts each reply's
// output tokens by tokenizing the text it received (streamed or whole), stored beside the
// server's usage, and the summary labels both and says which one its rates use. The mock
// replies "tok " × completion_tokens and reports completion_tokens as usage, so the expected
// client count of every request is the tokenizer's count of that text.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/tokenizer/tokenizer.h"
#include "tests/integration/child_process.h"
#include "tests/integration/machine_holds.h"
#include "tests/integration/timing_budget.h"
#include "tests/integration/workload_run.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;
using plumbline::tokenizer::Tokenizer;

namespace {

const std::string kQwen3Tokenizer = std::string(PLUMBLINE_SOURCE_DIR) + "/tests/tokenizer/qwen3/tokenizer.json";
constexpr int kMinOut = 1, kMaxOut = 40;

json replyWorkload(bool stream, const json& session) {
  return json{{"plumbline", 1},
              {"verdict", {{"send_lag_tolerance_ms", 1000}}},  // about tokens here, not timing
              {"name", "reply tokens"},
              {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", stream},
                          {"mock", {{"ttft_ms", 0}, {"itl_ms", 0}}}}},
              {"load", {{"arrival", "constant"}, {"seed", 9},
                        {"stages", json::array({{{"rate", 20}, {"duration_s", 2}}})}}},
              {"requests", {{"input_tokens", {{"dist", "uniform"}, {"min", 10}, {"max", 100}}},
                            {"output_tokens", {{"dist", "uniform"}, {"min", kMinOut}, {"max", kMaxOut}}},
                            {"prompt", {{"source", "synthetic"}, {"tokenizer", kQwen3Tokenizer}}},
                            {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}},
              {"session", session}};
}

struct ReplyRun {
  int exitCode = -1;
  std::string output;
  json summary, requests;
};

ReplyRun runReplyWorkload(const TempDir& dir, const json& w) {
  plumbline::test::WorkloadRun run = plumbline::test::runWorkloadDocument(dir, w, {"--target", "embedded"});
  return {run.exitCode, run.output, run.summary, run.exported["requests"]};
}

/// Every request: server = the mock's usage (the drawn length), client = the tokenizer's count
/// of the text the mock sent for it; the summary's totals are the sums of each side.
void checkCounts(const ReplyRun& r, size_t expectedRequests) {
  Tokenizer tokenizer = Tokenizer::fromFile(kQwen3Tokenizer);
  ASSERT_EQ(r.requests.size(), expectedRequests);
  uint64_t serverOut = 0, clientOut = 0, clientDiffers = 0;
  for (const auto& q : r.requests) {
    ASSERT_EQ(q["error_class"], "none") << q.dump();
    const int server = q["output_tokens_server"], client = q["output_tokens_client"];
    EXPECT_GE(server, kMinOut);
    EXPECT_LE(server, kMaxOut);
    EXPECT_EQ(client, static_cast<int>(tokenizer.countTokens(plumbline::test::mockReplyText(server)))) << q.dump();
    serverOut += static_cast<uint64_t>(server);
    clientOut += static_cast<uint64_t>(client);
    clientDiffers += client != server ? 1 : 0;
  }
  EXPECT_GT(clientDiffers, 0u);  // the tokenizer's count is not the mock's one-per-word
  const json& counts = r.summary["token_counts"];
  EXPECT_EQ(counts["server"]["output"], serverOut);
  EXPECT_EQ(counts["client"]["output"], clientOut);
  EXPECT_EQ(counts["client_output_basis"], "tokenizer:" + kQwen3Tokenizer);
  EXPECT_EQ(counts["client_input_basis"], "tokenizer:" + kQwen3Tokenizer);
  EXPECT_EQ(counts["client_output"], "reply text as received, tokenized (tokenizer: " + kQwen3Tokenizer + ")");
  EXPECT_EQ(counts["used_for_rates"], "server");
  EXPECT_EQ(r.summary["token_count_source"], "server");
}

}  // namespace

TEST(ReplyTokensRun, StreamedRepliesAreCountedWithTheTokenizer) {
  TempDir dir;
  const ReplyRun r = runReplyWorkload(dir, replyWorkload(true, {{"shape", "single"}}));
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(r.exitCode, r.summary)) << r.output;
  checkCounts(r, 40);
  EXPECT_NE(r.output.find("token counts used for the rates: the server's (usage)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("client out: reply text as received, tokenized"), std::string::npos) << r.output;
}

TEST(ReplyTokensRun, WholeBodyRepliesAreCountedWithTheTokenizer) {
  TempDir dir;
  const ReplyRun r = runReplyWorkload(dir, replyWorkload(false, {{"shape", "single"}}));
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(r.exitCode, r.summary)) << r.output;
  checkCounts(r, 40);
}

TEST(ReplyTokensRun, SessionRepliesAreCountedAndGrowTheNextTurnsInputCount) {
  TempDir dir;
  const ReplyRun r = runReplyWorkload(
      dir, replyWorkload(true, {{"shape", "multi_turn"},
                           {"turns", {{"dist", "fixed"}, {"value", 2}}},
                           {"think_time_s", {{"dist", "fixed"}, {"value", 0}}}}));
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(r.exitCode, r.summary)) << r.output;
  checkCounts(r, 80);
  // A second turn resends the first with its reply: its input count includes the reply's
  // tokenizer count (plus its own new message of at least 10 tokens).
  std::map<uint64_t, std::map<int, json>> bySession;
  for (const auto& q : r.requests) bySession[q["session_id"]][q["turn"]] = q;
  ASSERT_EQ(bySession.size(), 40u);
  for (const auto& [id, turns] : bySession) {
    ASSERT_EQ(turns.size(), 2u);
    const int first = turns.at(0)["input_tokens_client"], reply = turns.at(0)["output_tokens_client"];
    const int second = turns.at(1)["input_tokens_client"];
    EXPECT_GE(second, first + reply + 10) << id;
    EXPECT_LE(second, first + reply + 100) << id;
  }
}

// QA 24 D4: with a thinking model the next turn resends the answer only, so its input count
// grows by the tokenizer's count of the answer, not of the answer and the thinking.
TEST(ReplyTokensRun, ALaterTurnCountsTheResentAnswerWithoutTheThinking) {
  TempDir dir;
  json w = replyWorkload(true, {{"shape", "multi_turn"},
                                {"turns", {{"dist", "fixed"}, {"value", 2}}},
                                {"think_time_s", {{"dist", "fixed"}, {"value", 0}}}});
  w["target"]["mock"]["thinking_tokens"] = 8;
  w["requests"]["input_tokens"] = {{"dist", "fixed"}, {"value", 30}};
  w["requests"]["output_tokens"] = {{"dist", "fixed"}, {"value", 20}};
  const ReplyRun r = runReplyWorkload(dir, w);
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(r.exitCode, r.summary)) << r.output;
  const int answer = static_cast<int>(
      Tokenizer::fromFile(kQwen3Tokenizer).countTokens(plumbline::test::mockReplyText(20 - 8)));
  int secondTurns = 0;
  for (const auto& q : r.requests) {
    ASSERT_EQ(q["error_class"], "none") << q.dump();
    if (q["turn"] != 1) continue;
    ++secondTurns;
    EXPECT_EQ(q["input_tokens_client"], 30 + answer + 30) << q.dump();
  }
  EXPECT_EQ(secondTurns, 40);
}
