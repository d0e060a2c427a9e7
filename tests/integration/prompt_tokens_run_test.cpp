// A run with a prompt tokenizer against the embedded mock: every request stores the server's
// usage and the client's counts side by side, and every result says what they mean.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/tokenizer/tokenizer.h"
#include "core/workload/prompt_materials.h"
#include "core/workload/workload_loader.h"
#include "tests/integration/child_process.h"
#include "tests/integration/machine_holds.h"
#include "tests/integration/timing_budget.h"
#include "tests/integration/workload_run.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;

namespace {

const std::string kQwen3 = std::string(PLUMBLINE_SOURCE_DIR) + "/tests/tokenizer/qwen3/tokenizer.json";

json promptWorkload(const json& prompt) {
  return json{{"plumbline", 1},
              {"verdict", {{"send_lag_tolerance_ms", 1000}}},  // about tokens here, not timing
              {"name", "prompt tokens"},
              {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", true},
                          {"mock", {{"ttft_ms", 0}, {"itl_ms", 0}}}}},
              {"load", {{"arrival", "constant"}, {"seed", 5},
                        {"stages", json::array({{{"rate", 20}, {"duration_s", 2}}})}}},
              {"requests", {{"input_tokens", {{"dist", "uniform"}, {"min", 20}, {"max", 300}}},
                            {"output_tokens", {{"dist", "fixed"}, {"value", 8}}},
                            {"prompt", prompt},
                            {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
}

struct PromptRun : plumbline::test::WorkloadRun {
  std::string shown;
};

PromptRun runPromptWorkload(const TempDir& dir, const json& w) {
  PromptRun r;
  static_cast<plumbline::test::WorkloadRun&>(r) = plumbline::test::runWorkloadDocument(dir, w);
  ChildProcess s({PLUMBLINE_BIN, "runs", "--db", dir.file("runs.db"), "show", "1"}, dir.file("show.txt"));
  s.wait(30'000);
  r.shown = s.output();
  return r;
}

}  // namespace

TEST(PromptTokensRun, WithATokenizerBothCountsAreStoredAndLabelled) {
  TempDir dir;
  const PromptRun r = runPromptWorkload(dir, promptWorkload({{"source", "synthetic"}, {"tokenizer", kQwen3}}));
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(r.exitCode, r.summary)) << r.output;
  json s = r.summary;
  EXPECT_EQ(s["prompt_tokens_basis"], "tokenizer: " + kQwen3);
  EXPECT_EQ(s["token_count_source"], "server");
  EXPECT_EQ(s["token_counts"]["requests_with_server_usage"], s["completed"]);
  EXPECT_EQ(s["token_counts"]["client_input"], "planned prompt length (tokenizer: " + kQwen3 + ")");
  EXPECT_NE(r.output.find("prompt tokens: tokenizer: " + kQwen3), std::string::npos) << r.output;
  EXPECT_NE(r.shown.find("prompt tokens: tokenizer: " + kQwen3), std::string::npos) << r.shown;
  json run = r.exported["run"];
  EXPECT_EQ(run["summary"]["prompt_tokens_basis"], s["prompt_tokens_basis"]);
  const json& requests = r.exported["requests"];
  ASSERT_EQ(requests.size(), 40u);
  const int mockReplyTokens =
      static_cast<int>(plumbline::tokenizer::Tokenizer::fromFile(kQwen3).countTokens(plumbline::test::mockReplyText(8)));
  size_t serverDiffers = 0;
  for (const auto& q : requests) {
    // Client: the exact qwen3 length of the prompt sent. Server: the mock counts words, and
    // the synthetic text's periods are tokens but not words, so the two differ.
    const int client = q["input_tokens_client"], server = q["input_tokens_server"];
    EXPECT_GE(client, 20);
    EXPECT_LE(client, 300);
    EXPECT_GT(server, 0);
    EXPECT_LE(server, client);
    serverDiffers += server != client ? 1 : 0;
    EXPECT_EQ(q["output_tokens_server"], 8);
    // The client tokenizes the reply it received ("tok " x 8 from the mock) with qwen3.
    EXPECT_EQ(q["output_tokens_client"], mockReplyTokens);
  }
  EXPECT_GT(serverDiffers, 30u);
}

TEST(PromptTokensRun, WithoutATokenizerEveryResultSaysTheCountsAreApproximate) {
  TempDir dir;
  const PromptRun r = runPromptWorkload(dir, promptWorkload({{"source", "synthetic"}}));
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(r.exitCode, r.summary)) << r.output;
  json s = r.summary;
  EXPECT_EQ(s["prompt_tokens_basis"], "approximate: 1 word per token");
  EXPECT_EQ(s["token_counts"]["client_input"], "planned prompt length (approximate: 1 word per token)");
  EXPECT_EQ(s["token_counts"]["client_output"],
            "content chunks (one per streamed delta with generated text)");
  EXPECT_NE(r.output.find("prompt tokens: approximate: 1 word per token"), std::string::npos) << r.output;
  EXPECT_NE(r.shown.find("prompt tokens: approximate: 1 word per token"), std::string::npos) << r.shown;
  for (const auto& q : r.exported["requests"]) EXPECT_EQ(q["input_tokens_client"], q["input_tokens_server"]);
}

TEST(PromptTokensRun, ShareGptCatalogWorkloadRunsAndSendsDatasetLengths) {
  TempDir dir;
  const std::string wl = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/chat_sharegpt_sample.json";
  ChildProcess p({PLUMBLINE_BIN, "run", wl, "--db", dir.file("runs.db"), "--summary-json", dir.file("summary.json"),
                  "--rate", "20", "--duration", "2", "--workers", "1", "--quiet"},
                 dir.file("out.txt"));
  const int code = p.wait(120'000);
  ASSERT_TRUE(code == 0 || code == 3) << p.output();  // timing is not the point here
  std::ifstream in(dir.file("summary.json"));
  json s = json::parse(in);
  EXPECT_EQ(s["prompt_tokens_basis"], "tokenizer: ../tests/tokenizer/qwen3/tokenizer.json");
  EXPECT_EQ(s["errors"], json::object());
  EXPECT_GT(s["completed"].get<int>(), 30);
  ChildProcess e({PLUMBLINE_BIN, "runs", "--db", dir.file("runs.db"), "export", "1", "--format", "json"},
                 dir.file("export.json"));
  e.wait(30'000);
  // Keep the parsed export alive: a range-for over a member of a temporary reads freed memory
  // (heap-use-after-free found by the ASan run).
  const json exported = json::parse(e.output());
  // max_input_tokens (256) bounds the human text; a conversation's system turn is sent on top.
  const auto spec = plumbline::workload::loadWorkloadFile(wl);
  uint32_t longest = 0;
  for (const auto& prompt : spec.requests.prompt.materials->sharegpt->prompts()) {
    EXPECT_LE(prompt.inputTokens, 256u);
    longest = std::max(longest, prompt.firstRequestTokens());
  }
  for (const auto& q : exported["requests"]) {
    EXPECT_LE(q["input_tokens_client"].get<uint32_t>(), longest);
    EXPECT_LE(q["output_tokens_server"].get<int>(), 512);
  }
}
