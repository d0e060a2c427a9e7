#include <gtest/gtest.h>

#include "core/workload/length_dist_parser.h"
#include "core/workload/session_estimate.h"
#include "core/workload/session_preview.h"
#include "core/workload/workload_error.h"
#include "core/workload/workload_loader.h"

using namespace plumbline::workload;
using json = nlohmann::json;

namespace {
const LengthDist kIn = parseLengthDist(json::parse(R"({"dist":"fixed","value":100})"), "in");
const LengthDist kOut = parseLengthDist(json::parse(R"({"dist":"fixed","value":10})"), "out");
SessionPreview preview(const char* text) { return previewSession(json::parse(text), kIn, kOut); }
}  // namespace

TEST(SessionPreview, SingleIsOneRequest) {
  const auto p = preview(R"({"shape":"single"})");
  EXPECT_DOUBLE_EQ(p.requests, 1);
  EXPECT_DOUBLE_EQ(p.inputTokens, 100);
  EXPECT_DOUBLE_EQ(p.outputTokens, 10);
}

TEST(SessionPreview, MultiTurnResendsTheConversation) {
  // 3 turns: 100, 100+10+100, 100+10+100+10+100 = 630 input; 30 output.
  const auto p = preview(
      R"({"shape":"multi_turn","turns":{"dist":"fixed","value":3},"think_time_s":{"dist":"fixed","value":1}})");
  EXPECT_DOUBLE_EQ(p.requests, 3);
  EXPECT_DOUBLE_EQ(p.inputTokens, 630);
  EXPECT_DOUBLE_EQ(p.outputTokens, 30);
  EXPECT_EQ(p.typicalCount, 3);
}

TEST(SessionPreview, MultiTurnWithRandomTurnsUsesTheSecondMoment) {
  // turns uniform 1..3: E[T] = 2, E[T²] = 14/3; input = 100·(14/3+2)/2 + 10·(14/3−2)/2 = 346.7
  const auto p = preview(
      R"({"shape":"multi_turn","turns":{"dist":"uniform","min":1,"max":3},"think_time_s":{"dist":"fixed","value":0}})");
  EXPECT_NEAR(p.requests, 2, 0.03);
  EXPECT_NEAR(p.inputTokens, 346.7, 5);
}

TEST(SessionPreview, TreeCountsEveryNode) {
  // root + 2 + 4 nodes; context: 1·100 + 2·(110+100) + 4·(220+100) = 1800
  const auto p = preview(R"({"shape":"tree","branching":2,"depth":2})");
  EXPECT_DOUBLE_EQ(p.requests, 7);
  EXPECT_DOUBLE_EQ(p.inputTokens, 1800);
  EXPECT_DOUBLE_EQ(p.outputTokens, 70);
  EXPECT_EQ(p.branching, 2);
  EXPECT_EQ(p.typicalCount, 2);
}

TEST(SessionPreview, AgenticAppendsRepliesAndToolResults) {
  // 3 steps, tool results 50: 100 + (100+60) + (100+120) = 480
  const auto p = preview(
      R"({"shape":"agentic","steps":{"dist":"fixed","value":3},"tool_latency_s":{"dist":"fixed","value":1},
          "tool_result_tokens":{"dist":"fixed","value":50}})");
  EXPECT_DOUBLE_EQ(p.requests, 3);
  EXPECT_DOUBLE_EQ(p.inputTokens, 480);
  EXPECT_DOUBLE_EQ(p.outputTokens, 30);
}

TEST(SessionPreview, SummarizeMapsThenReduces) {
  const auto p = preview(R"({"shape":"summarize","chunks":{"dist":"fixed","value":4}})");
  EXPECT_DOUBLE_EQ(p.requests, 5);
  EXPECT_DOUBLE_EQ(p.inputTokens, 4 * 100 + 4 * 10);
  EXPECT_DOUBLE_EQ(p.outputTokens, 50);
}

TEST(SessionPreview, ErrorsNameTheField) {
  try {
    preview(R"({"shape":"multi_turn"})");
    FAIL() << "no error";
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "session.turns");
  }
  try {
    preview(R"({"shape":"tree","branching":0,"depth":2})");
    FAIL() << "no error";
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "session.branching");
  }
  try {
    preview(R"({"shape":"spiral"})");
    FAIL() << "no error";
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "session.shape");
  }
  EXPECT_THROW(preview(R"({"shape":"tree","branching":10,"depth":9})"), WorkloadError);
}

TEST(SessionPreview, TheDesignerAndThePlanShowTheSameFiguresForEveryCatalogWorkload) {
  const std::string dir = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/";
  for (const char* name : {"multi_turn_chat", "tree_of_thought", "agentic_codegen", "batch_summarize",
                           "shared_prefix_chat", "chat", "chat_sharegpt_sample"}) {
    const WorkloadSpec spec = loadWorkloadFile(dir + name + ".json");
    const SessionPreview p = previewSession(spec);
    const SessionEstimate e = estimateSessions(spec);
    EXPECT_EQ(p.requests, e.requestsPerSession) << name;
    EXPECT_EQ(p.inputTokens, e.inputTokensPerSession) << name;
    EXPECT_EQ(p.outputTokens, e.outputTokensPerSession) << name;
    EXPECT_EQ(p.shape, spec.session.shape) << name;
  }
}

TEST(SessionPreview, RejectsWhatTheLoaderRejects) {
  // 1 + 16 + 256 + 4096 requests: over the loader's 4096 per tree, so over the preview's too.
  try {
    preview(R"({"shape":"tree","branching":16,"depth":3})");
    FAIL() << "no error";
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "session.depth");
  }
  EXPECT_THROW(preview(R"({"shape":"multi_turn","turns":{"dist":"fixed","value":2}})"), WorkloadError)
      << "think_time_s is required";
}
