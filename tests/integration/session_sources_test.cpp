// Real text sources in sessions, checked from the mock's side of the wire (recording_mock.h):
// multi-turn sessions that replay a ShareGPT conversation's human turns, and a Mooncake replay
// whose prompts are built from shared 512-token blocks, one per hash id.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/integration/recording_mock.h"

using nlohmann::json;
using namespace plumbline::test;

namespace {

std::string stemWords(const std::string& stem, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += (i ? " " : "") + stem + std::to_string(i);
  return s;
}

/// Three conversations: 3 exchanges after a system turn; 1 exchange; 2 exchanges and then two
/// human turns in a row (where the replayable part ends). Texts carry quotes, accents and newlines.
json dataset() {
  auto turn = [](const char* from, std::string value) { return json{{"from", from}, {"value", std::move(value)}}; };
  return json::array(
      {{{"id", "three"},
        {"conversations",
         {turn("system", "be brief"), turn("human", "Plan a \"trip\" to Zürich, please.\nTwo days."),
          turn("gpt", stemWords("r", 6)), turn("human", "And the second day? " + stemWords("a", 4)),
          turn("gpt", stemWords("s", 9)), turn("human", "Thanks — one last question"), turn("gpt", stemWords("t", 4)),
          turn("human", "ignored: turns are capped at 3")}}},
       {{"id", "one"}, {"conversations", {turn("human", "What is 2+2?"), turn("gpt", stemWords("u", 3))}}},
       {{"id", "broken"},
        {"conversations",
         {turn("human", "first of broken " + stemWords("b", 3)), turn("gpt", stemWords("v", 5)),
          turn("human", "second of broken"), turn("gpt", stemWords("w", 7)), turn("human", "a third, unanswered"),
          turn("human", "and a fourth"), turn("gpt", stemWords("x", 2))}}}});
}

/// Human texts and reply lengths (words) of each conversation's replayable exchanges, by its
/// first human text.
struct Exchange {
  std::string human;
  size_t replyWords;
};
std::map<std::string, std::vector<Exchange>> exchangesByFirstText() {
  std::map<std::string, std::vector<Exchange>> out;
  const json d = dataset();
  auto add = [&](size_t conversation, std::vector<std::pair<size_t, size_t>> humanReply) {
    const json& turns = d[conversation]["conversations"];
    std::vector<Exchange> ex;
    for (auto [h, r] : humanReply)
      ex.push_back({turns[h]["value"].get<std::string>(), countWords(turns[r]["value"].get<std::string>())});
    out[ex.front().human] = ex;
  };
  add(0, {{1, 2}, {3, 4}, {5, 6}});
  add(1, {{0, 1}});
  add(2, {{0, 1}, {2, 3}});
  return out;
}

/// The system text each conversation leads with, by its first human text.
std::string conversationSystem(const std::string& firstHuman) {
  return firstHuman.rfind("Plan a", 0) == 0 ? "be brief" : "";
}

/// Input tokens as the mock counts them (words) over every message a request carried.
size_t wordsSent(const json& messages) {
  size_t n = 0;
  for (const json& m : messages) n += countWords(m.at("content").get<std::string>());
  return n;
}

/// 12 sessions in a second over chats.json (dataset()), with `prompt` keys added to the source's.
json chatsWorkload(const std::string& name, int seed, const json& prompt, const json& session) {
  json source = {{"source", "sharegpt"}, {"file", "chats.json"}};
  source.update(prompt);
  return {{"plumbline", 1},
          {"name", name},
          {"verdict", {{"send_lag_tolerance_ms", 1000}}},
          {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", true}}},
          {"load",
           {{"arrival", "constant"},
            {"seed", seed},
            {"stages", json::array({{{"rate", 12}, {"duration_s", 1}}})}}},
          {"requests",
           {{"prompt", source}, {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}},
          {"session", session}};
}

}  // namespace

TEST(SessionSources, MultiTurnShareGptSessionsReplayTheConversationsHumanTurnsInOrder) {
  TempDir dir;
  std::ofstream(dir.file("chats.json")) << dataset().dump(1);
  const json w = chatsWorkload("sharegpt turns", 3, json::object(),
                               {{"shape", "multi_turn"},
                                {"turns", {{"dist", "fixed"}, {"value", 3}}},
                                {"think_time_s", {{"dist", "fixed"}, {"value", 0.05}}}});
  const auto run = runAgainstRecordingMock(w, dir);
  const uint64_t planned = run.plan.at("requests").get<uint64_t>();
  expectCountsAgree(run, planned);

  const auto conversations = exchangesByFirstText();
  // Per conversation: how many bodies carried k user messages (each session sends turn k once).
  std::map<std::string, std::map<size_t, size_t>> turnsSeen;
  size_t inputWords = 0;
  for (const Received& r : run.received) {
    json m = messages(r);
    ASSERT_GE(m.size(), 1u);
    inputWords += wordsSent(m);
    // A conversation's system turn leads every request of its session, and only its own.
    std::string system;
    if (m[0].at("role") == "system") {
      system = m[0].at("content");
      m.erase(m.begin());
    }
    ASSERT_GE(m.size(), 1u);
    const std::string first = m[0].at("content");
    EXPECT_EQ(system, conversationSystem(first)) << r.body.dump();
    ASSERT_TRUE(conversations.count(first)) << "first message is not a dataset prompt: " << first;
    const std::vector<Exchange>& ex = conversations.at(first);
    ASSERT_EQ(m.size() % 2, 1u) << m.dump();
    const size_t k = m.size() / 2;  // 0-based turn: k earlier exchanges, then exchange k
    ASSERT_LT(k, ex.size()) << "more turns than the conversation has: " << m.dump();
    for (size_t i = 0; i <= k; ++i) {
      EXPECT_EQ(m[2 * i], (json{{"role", "user"}, {"content", ex[i].human}})) << "turn " << i;
      // The model's reply as the mock streamed it (max_tokens = the dataset reply's length).
      if (i < k) {
        EXPECT_EQ(m[2 * i + 1], (json{{"role", "assistant"}, {"content", replyText(ex[i].replyWords)}}));
      }
    }
    EXPECT_EQ(maxTokens(r), static_cast<int64_t>(ex[k].replyWords));
    ++turnsSeen[first][k];
  }
  size_t total = 0;
  for (const auto& [first, byTurn] : turnsSeen) {
    const size_t turns = std::min<size_t>(3, conversations.at(first).size());  // capped by the conversation
    ASSERT_EQ(byTurn.size(), turns) << first;
    for (const auto& [k, n] : byTurn) EXPECT_EQ(n, byTurn.at(0)) << first << " turn " << k;
    total += byTurn.at(0) * turns;
  }
  EXPECT_EQ(total, planned);
  EXPECT_EQ(run.plan.at("sessions").get<uint64_t>(), 12u);
  // The plan counted what went out, system turns included (replies are as long as asked).
  EXPECT_EQ(run.plan.at("total_input_tokens").get<uint64_t>(), inputWords);
  EXPECT_EQ(run.plan.at("prompt_dataset").at("with_system_turn"), 1);
}

TEST(SessionSources, AShareGptSystemTurnFollowsTheGroupsSharedSystemPromptInOneMessage) {
  TempDir dir;
  std::ofstream(dir.file("chats.json")) << dataset().dump(1);
  const json w =
      chatsWorkload("sharegpt system turns with a shared prefix", 5,
                    {{"shared_prefix", {{"groups", 1}, {"tokens", 7}}}}, {{"shape", "single"}});
  const auto run = runAgainstRecordingMock(w, dir);
  expectCountsAgree(run, 12);
  std::set<std::string> prefixes;
  size_t inputWords = 0, led = 0;
  for (const Received& r : run.received) {
    const json& m = messages(r);
    ASSERT_EQ(m.size(), 2u) << r.body.dump();
    ASSERT_EQ(m[0].at("role"), "system");
    ASSERT_EQ(m[1].at("role"), "user");
    inputWords += wordsSent(m);
    const std::string system = m[0].at("content");
    const std::string own = conversationSystem(m[1].at("content"));
    std::string prefix = system;
    if (!own.empty()) {
      ++led;
      ASSERT_GT(system.size(), own.size() + 2) << system;
      EXPECT_EQ(system.substr(system.size() - own.size() - 2), "\n\n" + own)
          << "the group's prompt first";
      prefix = system.substr(0, system.size() - own.size() - 2);
    }
    EXPECT_EQ(countWords(prefix), 7u) << prefix;
    prefixes.insert(prefix);
  }
  EXPECT_GT(led, 0u) << "no session drew the conversation with a system turn";
  EXPECT_EQ(prefixes.size(), 1u) << "one group: one shared prompt";
  EXPECT_EQ(run.plan.at("total_input_tokens").get<uint64_t>(), inputWords);
}

TEST(SessionSources, MooncakeHashIdsBecomeSharedBlocksOfIdenticalText) {
  TempDir dir;
  // Rows: a and b share blocks 7 and 8 (then differ); c shares block 7 only; d shares no
  // block; e repeats a's first block as a partial one.
  const std::vector<json> rows = {
      {{"timestamp", 0}, {"input_length", 1300}, {"output_length", 3}, {"hash_ids", {7, 8, 9}}},
      {{"timestamp", 100}, {"input_length", 1100}, {"output_length", 4}, {"hash_ids", {7, 8, 10}}},
      {{"timestamp", 200}, {"input_length", 700}, {"output_length", 2}, {"hash_ids", {7, 11}}},
      {{"timestamp", 300},
       {"input_length", 1500},
       {"output_length", 5},
       {"hash_ids", {12, 13, 14}}},
      {{"timestamp", 400}, {"input_length", 300}, {"output_length", 1}, {"hash_ids", {7}}}};
  {
    std::ofstream trace(dir.file("trace.jsonl"));
    for (const json& r : rows) trace << r.dump() << '\n';
  }
  const json w = {
      {"plumbline", 1},
      {"name", "mooncake blocks"},
      {"verdict", {{"send_lag_tolerance_ms", 1000}}},
      {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", true}}},
      {"load", {{"arrival", "trace"},
                {"trace", {{"file", "trace.jsonl"}, {"format", "mooncake_jsonl"}, {"lengths", "trace"}}}}},
      {"requests", {{"prompt", {{"source", "synthetic"}}}, {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}},
      {"session", {{"shape", "single"}}}};
  const auto run = runAgainstRecordingMock(w, dir);
  expectCountsAgree(run, rows.size());

  // Arrival order is the trace's order (100 ms apart). Split each prompt into its words.
  std::vector<std::vector<std::string>> prompt;
  for (size_t i = 0; i < rows.size(); ++i) {
    const json& m = messages(run.received[i]);
    ASSERT_EQ(m.size(), 1u);
    std::vector<std::string> ws;
    std::istringstream in(m[0].at("content").get<std::string>());
    for (std::string word; in >> word;) ws.push_back(word);
    // Lengths still match the trace: input words and max_tokens.
    EXPECT_EQ(ws.size(), rows[i]["input_length"].get<size_t>()) << "row " << i;
    EXPECT_EQ(maxTokens(run.received[i]), rows[i]["output_length"].get<int64_t>()) << "row " << i;
    prompt.push_back(std::move(ws));
  }
  auto commonPrefix = [&](size_t a, size_t b) {
    size_t n = 0;
    while (n < prompt[a].size() && n < prompt[b].size() && prompt[a][n] == prompt[b][n]) ++n;
    return n;
  };
  // Identical for exactly the shared blocks: the next block's text differs.
  EXPECT_GE(commonPrefix(0, 1), 1024u);
  EXPECT_LT(commonPrefix(0, 1), 1024u + 16);
  EXPECT_GE(commonPrefix(0, 2), 512u);
  EXPECT_LT(commonPrefix(0, 2), 512u + 16);
  EXPECT_LT(commonPrefix(0, 3), 16u);
  EXPECT_EQ(commonPrefix(0, 4), 300u) << "a partial block is the start of its id's block";
  // d: blocks of its own, none of them a's, b's or c's block text.
  EXPECT_LT(commonPrefix(3, 1), 16u);

  // The plan shows the reuse: blocks seen before over all input tokens.
  const double reused = 512 + 512 + 512 + 300;  // b: 7, 8; c: 7; e: 7 (partial)
  const double total = 1300 + 1100 + 700 + 1500 + 300;
  EXPECT_NEAR(run.plan.at("session").at("prefix_reuse_share").get<double>(), reused / total, 1e-9);
}
