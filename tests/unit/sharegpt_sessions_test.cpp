// Multi-turn sessions over a ShareGPT file: each turn is the conversation's next exchange
// (its human text's length, its model turn's length), and turns stop with the conversation.
#include <gtest/gtest.h>

#include "core/workload/planner.h"
#include "core/workload/session_estimate.h"
#include "core/workload/sharegpt_prompts.h"
#include "core/workload/workload_loader.h"

using namespace plumbline::workload;

namespace {

WorkloadSpec sharegptMultiTurn(int turns) {
  const auto document = nlohmann::json::parse(R"({
    "plumbline": 1, "name": "t",
    "load": {"arrival": "constant", "seed": 9, "stages": [{"rate": 20, "duration_s": 10}]},
    "requests": {"prompt": {"source": "sharegpt", "file": "datasets/sample_chat.json"}},
    "session": {"shape": "multi_turn", "think_time_s": {"dist": "fixed", "value": 1}}})");
  auto d = document;
  d["session"]["turns"] = {{"dist", "fixed"}, {"value", turns}};
  return parseWorkload(d, std::string(PLUMBLINE_SOURCE_DIR) + "/workloads");
}

}  // namespace

TEST(ShareGptSessions, EachTurnIsTheConversationsNextExchangeUpToItsLength) {
  const WorkloadSpec spec = sharegptMultiTurn(6);
  const ShareGptPrompts& prompts = *shareGptPrompts(spec);
  size_t capped = 0, multi = 0, withSystem = 0;
  for (uint64_t id = 0; id < 200; ++id) {
    const SessionPlan s = drawSession(spec, id);
    const ShareGptPrompt& prompt = prompts.pick(spec.load.seed, id);
    ASSERT_EQ(s.requests.size(), std::min<size_t>(6, prompt.laterTurns.size() + 1)) << id;
    capped += s.requests.size() < 6 ? 1 : 0;
    multi += s.requests.size() > 1 ? 1 : 0;
    // The first request sends the conversation's system turn too, and every later one resends it.
    EXPECT_EQ(s.requests[0].newTokens, prompt.systemTokens + prompt.inputTokens);
    EXPECT_EQ(requestInputTokens(s).front(), prompt.systemTokens + prompt.inputTokens);
    withSystem += prompt.systemTokens > 0 ? 1 : 0;
    EXPECT_EQ(s.requests[0].outputTokens, prompt.outputTokens);
    for (size_t k = 0; k < s.requests.size(); ++k) {
      EXPECT_EQ(s.requests[k].text, RequestText::DatasetTurn);
      if (k == 0) continue;
      EXPECT_EQ(s.requests[k].parents, std::vector<uint32_t>{static_cast<uint32_t>(k - 1)});
      EXPECT_EQ(s.requests[k].newTokens, prompt.laterTurns[k - 1].inputTokens);
      EXPECT_EQ(s.requests[k].outputTokens, prompt.laterTurns[k - 1].outputTokens);
      EXPECT_EQ(s.requests[k].delayNs, 1'000'000'000);
    }
  }
  EXPECT_GT(capped, 0u) << "the sample has conversations shorter than 6 exchanges";
  EXPECT_GT(multi, 0u) << "the sample has multi-turn conversations";
  EXPECT_GT(withSystem, 0u) << "the sample has conversations led by a system turn";
  // The estimate `plumbline plan` prints counts the capped turns, not the drawn 6.
  EXPECT_LT(estimateSessions(spec).requestsPerSession, 6.0);
}

TEST(ShareGptSessions, OneTurnIsThePromptAlone) {
  const WorkloadSpec spec = sharegptMultiTurn(1);
  for (uint64_t id = 0; id < 50; ++id) EXPECT_EQ(drawSession(spec, id).requests.size(), 1u);
}
