// Session shapes checked from the mock's side of the wire (recording_mock.h): each test runs
// one shape and checks that exactly the planned requests arrived, each after what it depends
// on, carrying the replies the mock actually sent ("tok " × max_tokens with ignore_eos).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "tests/integration/db_query.h"
#include "tests/integration/recording_mock.h"

using nlohmann::json;
using namespace plumbline::test;

namespace {

json shapesWorkload(const json& session, double rate, double durationS, const std::string& api = "chat") {
  return json{{"plumbline", 1},
              {"name", "sessions"},
              {"verdict", {{"send_lag_tolerance_ms", 1000}}},
              {"target", {{"url", "embedded"}, {"api", api}, {"model", "mock"}, {"stream", true}}},
              {"load", {{"arrival", "constant"}, {"seed", 5},
                        {"stages", json::array({{{"rate", rate}, {"duration_s", durationS}}})}}},
              {"requests", {{"input_tokens", {{"dist", "uniform"}, {"min", 5}, {"max", 30}}},
                            {"output_tokens", {{"dist", "uniform"}, {"min", 3}, {"max", 12}}},
                            {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}},
              {"session", session}};
}


/// child = parent's messages + the parent's reply as the assistant + one new user message.
bool extends(const Received& child, const Received& parent) {
  const json& c = messages(child);
  const json& p = messages(parent);
  if (c.size() != p.size() + 2) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (c[i] != p[i]) return false;
  return c[p.size()] == json{{"role", "assistant"}, {"content", replyText(maxTokens(parent))}} &&
         c[p.size() + 1].at("role") == "user";
}

}  // namespace

TEST(SessionShapes, MultiTurnResendsTheConversationWithTheActualReplies) {
  // 4 sessions of 4 turns, 0.15 s think time.
  const auto run = runAgainstRecordingMock(shapesWorkload(
      {{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 4}}},
       {"think_time_s", {{"dist", "fixed"}, {"value", 0.15}}}},
      2, 2));
  expectCountsAgree(run, 16);
  std::map<std::string, std::vector<const Received*>> bySession;  // keyed by the first user message
  for (const auto& r : run.received) bySession[messages(r)[0].at("content")].push_back(&r);
  ASSERT_EQ(bySession.size(), 4u);
  for (const auto& [first, turns] : bySession) {
    ASSERT_EQ(turns.size(), 4u);
    for (size_t k = 1; k < turns.size(); ++k) {
      EXPECT_TRUE(extends(*turns[k], *turns[k - 1])) << messages(*turns[k]).dump();
      // After the previous reply ended (>= its TTFT) plus the think time.
      EXPECT_GE(turns[k]->arrivalNs - turns[k - 1]->arrivalNs, (150 + kTtftMs) * 1'000'000);
    }
  }
}

// The rates are over the span the requests came due in: a conversation's turns run on past the
// stages (QA: 62 requests over a 3 s stage read "requested 20.67 rps" while they went out over
// 10 s, and the token rates of the same report used the 10 s).
TEST(SessionShapes, MultiTurnRatesCoverTheTurnsThatRanPastTheStages) {
  const auto run = runAgainstRecordingMock(
      shapesWorkload({{"shape", "multi_turn"},
                      {"turns", {{"dist", "fixed"}, {"value", 4}}},
                      {"think_time_s", {{"dist", "fixed"}, {"value", 0.5}}}},
                     2, 2));
  expectCountsAgree(run, 16);
  // The last sessions start at 1.5 s; their fourth turns come due three replies and think times
  // later.
  const double duration = run.summary.at("duration_s").get<double>();
  EXPECT_GT(duration, 1.5 + 3 * (0.5 + kTtftMs / 1000.0)) << run.summary.dump(2);
  EXPECT_LT(duration, 5.0) << run.summary.dump(2);
  EXPECT_NEAR(run.summary.at("requested_rps").get<double>() * duration, 16.0, 1e-6);
  EXPECT_NEAR(run.summary.at("achieved_rps").get<double>() * duration, 16.0, 1e-6);
}

TEST(SessionShapes, MultiTurnOnTheCompletionsApiConcatenatesThePrompt) {
  const auto run = runAgainstRecordingMock(shapesWorkload(
      {{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 3}}},
       {"think_time_s", {{"dist", "fixed"}, {"value", 0}}}},
      1, 1, "completions"));
  expectCountsAgree(run, 3);
  for (size_t k = 1; k < run.received.size(); ++k) {
    const std::string prev = run.received[k - 1].body.at("prompt");
    const std::string cur = run.received[k].body.at("prompt");
    const std::string expectedStart = prev + "\n\n" + replyText(maxTokens(run.received[k - 1])) + "\n\n";
    EXPECT_EQ(cur.substr(0, expectedStart.size()), expectedStart);
  }
}

TEST(SessionShapes, TreeSendsEachNodesChildrenAfterItCarryingItsContext) {
  // 2 sessions, branching 2, depth 2 (two generations below the root): 7 requests each.
  const auto run = runAgainstRecordingMock(shapesWorkload({{"shape", "tree"}, {"branching", 2}, {"depth", 2}}, 2, 1));
  expectCountsAgree(run, 14);
  size_t roots = 0;
  for (const auto& node : run.received) {
    const size_t size = messages(node).size();
    if (size == 1) ++roots;
    std::vector<const Received*> children;
    for (const auto& other : run.received)
      if (extends(other, node)) children.push_back(&other);
    EXPECT_EQ(children.size(), size < 5 ? 2u : 0u) << "node with " << size << " messages";
    for (const Received* c : children) EXPECT_GE(c->arrivalNs - node.arrivalNs, kTtftMs * 1'000'000);
  }
  EXPECT_EQ(roots, 2u);
}

TEST(SessionShapes, AgenticAppendsToolResultsOfTheDrawnLengthAfterToolLatency) {
  const auto run = runAgainstRecordingMock(shapesWorkload(
      {{"shape", "agentic"}, {"steps", {{"dist", "fixed"}, {"value", 3}}},
       {"tool_latency_s", {{"dist", "fixed"}, {"value", 0.1}}},
       {"tool_result_tokens", {{"dist", "fixed"}, {"value", 7}}}},
      1, 1));
  expectCountsAgree(run, 3);
  for (size_t k = 1; k < 3; ++k) {
    EXPECT_TRUE(extends(run.received[k], run.received[k - 1]));
    EXPECT_EQ(countWords(messages(run.received[k]).back().at("content")), 7u);
    EXPECT_GE(run.received[k].arrivalNs - run.received[k - 1].arrivalNs, (100 + kTtftMs) * 1'000'000);
  }
}

TEST(SessionShapes, SummarizeReducesOverEveryChunkSummaryAfterAllOfThem) {
  const auto run = runAgainstRecordingMock(
      shapesWorkload({{"shape", "summarize"}, {"chunks", {{"dist", "fixed"}, {"value", 4}}}}, 1, 1));
  expectCountsAgree(run, 5);
  const Received& reduce = run.received.back();
  int64_t summaryTokens = 0;
  for (size_t i = 0; i < 4; ++i) {
    const Received& map = run.received[i];
    ASSERT_EQ(messages(map).size(), 1u);
    summaryTokens += maxTokens(map);
    EXPECT_GE(reduce.arrivalNs - map.arrivalNs, kTtftMs * 1'000'000);
  }
  const std::string text = messages(reduce).at(0).at("content");
  EXPECT_EQ(countWords(text), static_cast<size_t>(summaryTokens));
  EXPECT_EQ(text.find_first_not_of("tok \n"), std::string::npos) << text;  // nothing but the replies
}

// QA 23a: a summarize session's chunks all went out at its instant, 17 in flight under a cap
// of 3; the cap held back only the requests that depend on replies. QA 23b: the cap was split
// rounding up, 5 over 2 workers let 6 fly. Two sessions 50 ms apart, on two workers.
TEST(SessionShapes, ASessionsFirstRequestsWaitForTheInFlightCap) {
  auto w = shapesWorkload({{"shape", "summarize"}, {"chunks", {{"dist", "fixed"}, {"value", 8}}}},
                          20, 0.1);
  w["load"]["max_in_flight"] = 3;
  TempDir dir;
  const auto run = runAgainstRecordingMock(w, dir);
  expectCountsAgree(run, 18);
  // The most requests in flight at once, from each send instant.
  EXPECT_EQ(plumbline::test::queryInt(
                dir.file("runs.db"),
                "SELECT max(c) FROM (SELECT (SELECT count(*) FROM requests b WHERE b.send_ns <= "
                "a.send_ns AND b.end_ns > a.send_ns) AS c FROM requests a)"),
            3);
}

// QA 23a: without a stream or a tokenizer a reply has no client count, and a reduce request
// that resent every chunk's reply counted 0 input tokens. Replies are counted in words then, as
// prompts are.
TEST(SessionShapes, RepliesResentWithoutAStreamAreCountedInTheClientsInput) {
  auto w =
      shapesWorkload({{"shape", "summarize"}, {"chunks", {{"dist", "fixed"}, {"value", 4}}}}, 1, 1);
  w["target"]["stream"] = false;
  TempDir dir;
  const auto run = runAgainstRecordingMock(w, dir);
  expectCountsAgree(run, 5);
  const std::string db = dir.file("runs.db");
  const int64_t replies = plumbline::test::queryInt(
      db, "SELECT sum(output_tokens_server) FROM requests WHERE turn < 4");
  EXPECT_GT(replies, 0);
  EXPECT_EQ(
      plumbline::test::queryInt(db, "SELECT input_tokens_client FROM requests WHERE turn = 4"),
      replies);
}

TEST(SessionShapes, SharedPrefixGroupsShareOneSystemPrompt) {
  auto w = shapesWorkload({{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 2}}},
                     {"think_time_s", {{"dist", "fixed"}, {"value", 0}}}},
                    10, 1);
  w["requests"]["prompt"] = {{"source", "synthetic"}, {"shared_prefix", {{"groups", 2}, {"tokens", 40}}}};
  const auto run = runAgainstRecordingMock(w);
  expectCountsAgree(run, 20);
  std::map<std::string, int> systems;
  for (const auto& r : run.received) {
    const json& first = messages(r).at(0);
    ASSERT_EQ(first.at("role"), "system");
    EXPECT_EQ(countWords(first.at("content")), 40u);
    ++systems[first.at("content")];
  }
  EXPECT_EQ(systems.size(), 2u);
  for (const auto& [text, n] : systems) EXPECT_GE(n, 4) << "each group is reused";
}
