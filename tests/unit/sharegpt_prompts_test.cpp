// ShareGPT prompt sampling: the one truncation policy, the length filters (tokenizer and
// approximation), and determinism by seed.
#include <set>

#include <gtest/gtest.h>

#include "core/tokenizer/tokenizer.h"
#include "core/workload/sharegpt_prompts.h"
#include "core/workload/workload_error.h"
#include "tests/unit/qwen3_tokenizer.h"

using namespace plumbline::workload;
using plumbline::testing::qwen3;
using plumbline::tokenizer::Tokenizer;

namespace {

ShareGptDataset sample() {
  return ShareGptDataset::fromFile(std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/datasets/sample_chat.json");
}

std::string words(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += (i ? " w" : "w") + std::to_string(i % 10);
  return s;
}

}  // namespace

TEST(ShareGptPrompts, TakesTheFirstAnsweredHumanTurnAndSkipsTheRest) {
  const auto d = ShareGptDataset::fromText(R"([
    {"id": 1, "conversations": [{"from": "system", "value": "be brief"}, {"from": "human", "value": "one two three"},
                                {"from": "gpt", "value": "a b"}, {"from": "human", "value": "later"}, {"from": "gpt", "value": "x"}]},
    {"id": 2, "conversations": [{"from": "human", "value": "unanswered"}]},
    {"id": 3, "conversations": [{"from": "gpt", "value": "no question"}]},
    {"id": 4, "conversations": [{"from": "human", "value": "empty reply"}, {"from": "gpt", "value": ""}]}])", "t.json");
  PromptTokenCounter approx(nullptr);
  ShareGptPrompts p(d, ShareGptSpec{}, approx);
  ASSERT_EQ(p.prompts().size(), 1u);
  EXPECT_EQ(p.prompts()[0].text, "one two three");
  EXPECT_EQ(p.prompts()[0].inputTokens, 3u);
  EXPECT_EQ(p.prompts()[0].outputTokens, 2u);
  EXPECT_EQ(p.skippedNoPair, 3u);
}

TEST(ShareGptPrompts, SystemTurnsBeforeTheFirstHumanTurnLeadThePromptAndCount) {
  const auto d = ShareGptDataset::fromText(R"([
    {"id": 1, "conversations": [{"from": "system", "value": "be brief"}, {"from": "system", "value": "answer in French"},
                                {"from": "human", "value": "one two three"}, {"from": "gpt", "value": "a b"},
                                {"from": "system", "value": "now be verbose"}, {"from": "human", "value": "later"},
                                {"from": "gpt", "value": "x"}]},
    {"id": 2, "conversations": [{"from": "human", "value": "q r"}, {"from": "gpt", "value": "s"},
                                {"from": "human", "value": "more"}, {"from": "system", "value": "between"},
                                {"from": "gpt", "value": "t"}]},
    {"id": 3, "conversations": [{"from": "human", "value": "q"}, {"from": "system", "value": "s"}, {"from": "gpt", "value": "t"}]},
    {"id": 4, "conversations": [{"from": "system", "value": ""}, {"from": "human", "value": "x y"}, {"from": "gpt", "value": "z"}]}])",
                                           "t.json");
  PromptTokenCounter approx(nullptr);
  ShareGptPrompts p(d, ShareGptSpec{}, approx);
  ASSERT_EQ(p.prompts().size(), 3u);
  const ShareGptPrompt& led = p.prompts()[0];
  EXPECT_EQ(led.text, "one two three");
  EXPECT_EQ(led.system, "be brief\n\nanswer in French");
  EXPECT_EQ(led.systemTokens, 5u);
  EXPECT_EQ(led.inputTokens, 3u);
  EXPECT_EQ(led.firstRequestTokens(), 8u);
  // A system turn mid-conversation is not the conversation's system prompt: it ends the replay.
  EXPECT_TRUE(led.laterTurns.empty());
  EXPECT_TRUE(p.prompts()[1].system.empty());
  EXPECT_EQ(p.prompts()[1].firstRequestTokens(), 2u);
  EXPECT_TRUE(p.prompts()[1].laterTurns.empty())
      << "the reply after a system turn is not the human turn's";
  EXPECT_EQ(p.skippedNoPair, 1u);  // the system turn between a question and its reply
  EXPECT_TRUE(p.prompts()[2].system.empty()) << "an empty system turn sends nothing";
  EXPECT_EQ(p.prompts()[2].systemTokens, 0u);
  EXPECT_EQ(p.withSystemTurn, 1u);
}

TEST(ShareGptPrompts, ApproximationFiltersShortAndKeepsTheStartOfLongInputs) {
  const nlohmann::json j = {{{"id", "short"}, {"conversations", {{{"from", "human"}, {"value", words(3)}}, {{"from", "gpt"}, {"value", words(50)}}}}},
                            {{"id", "long"}, {"conversations", {{{"from", "human"}, {"value", words(40)}}, {{"from", "gpt"}, {"value", words(5)}}}}},
                            {{"id", "fits"}, {"conversations", {{{"from", "human"}, {"value", words(10)}}, {{"from", "gpt"}, {"value", words(9)}}}}}};
  const auto d = ShareGptDataset::fromJson(j, "t.json");
  ShareGptSpec spec;
  spec.minInputTokens = 5;
  spec.maxInputTokens = 20;
  spec.maxOutputTokens = 8;
  PromptTokenCounter approx(nullptr);
  ShareGptPrompts p(d, spec, approx);
  ASSERT_EQ(p.prompts().size(), 2u);
  EXPECT_EQ(p.skippedTooShort, 1u);
  EXPECT_EQ(p.truncatedInputs, 1u);
  EXPECT_EQ(p.prompts()[0].text, words(20));  // the first 20 words, nothing after
  EXPECT_TRUE(p.prompts()[0].truncated);
  EXPECT_EQ(p.prompts()[0].inputTokens, 20u);
  EXPECT_EQ(p.prompts()[0].outputTokens, 5u);
  EXPECT_EQ(p.prompts()[1].inputTokens, 10u);
  EXPECT_EQ(p.prompts()[1].outputTokens, 8u);  // clamped to max_output_tokens
}

TEST(ShareGptPrompts, WithATokenizerEveryInputIsWithinBoundsAndCountedExactly) {
  const auto d = sample();
  ShareGptSpec spec;
  spec.minInputTokens = 16;
  spec.maxInputTokens = 64;
  spec.maxOutputTokens = 100;
  PromptTokenCounter counter(&qwen3());
  ShareGptPrompts p(d, spec, counter);
  EXPECT_GT(p.truncatedInputs, 5u);
  EXPECT_GT(p.skippedTooShort, 0u);
  EXPECT_EQ(p.skippedNoPair, 2u);
  EXPECT_EQ(p.entries, 50u);
  EXPECT_EQ(p.prompts().size() + p.skippedNoPair + p.skippedTooShort, 50u);
  size_t ledBySystem = 0;  // the sample's entries 3, 10, 17, 24, 31, 38 and 45, where usable here
  for (const auto& prompt : p.prompts()) {
    const auto& first = d.conversations()[prompt.conversation].turns.front();
    EXPECT_EQ(prompt.system, first.from == "system" ? first.value : "") << prompt.conversation;
    ledBySystem += first.from == "system" ? 1 : 0;
    EXPECT_EQ(prompt.inputTokens, qwen3().countTokens(prompt.text));
    EXPECT_EQ(prompt.systemTokens, qwen3().countTokens(prompt.system));
    EXPECT_GE(prompt.inputTokens, 16u);
    EXPECT_LE(prompt.inputTokens, 64u);
    EXPECT_GE(prompt.outputTokens, 1u);
    EXPECT_LE(prompt.outputTokens, 100u);
    if (prompt.truncated) {
      // keep_start: the cut text is where the original begins, and as long as allowed (the
      // decode/re-encode step back may cost a token at the cut, never more than a few).
      const auto& original = d.conversations()[prompt.conversation];
      bool found = false;
      for (const auto& turn : original.turns)
        found = found || (turn.from == "human" && turn.value.rfind(prompt.text, 0) == 0);
      EXPECT_TRUE(found) << prompt.text;
      EXPECT_GE(prompt.inputTokens, 60u);
    }
  }
  EXPECT_GT(ledBySystem, 0u);
  EXPECT_EQ(p.withSystemTurn, ledBySystem);
}

TEST(ShareGptPrompts, SamplingIsDeterministicBySeedAndCoversThePrompts) {
  const auto d = sample();
  PromptTokenCounter counter(&qwen3());
  ShareGptPrompts a(d, ShareGptSpec{}, counter), b(d, ShareGptSpec{}, counter);
  std::set<size_t> seen;
  size_t differentUnderOtherSeed = 0;
  for (uint64_t id = 0; id < 2000; ++id) {
    EXPECT_EQ(&a.pick(7, id) - a.prompts().data(), &b.pick(7, id) - b.prompts().data());
    seen.insert(static_cast<size_t>(&a.pick(7, id) - a.prompts().data()));
    differentUnderOtherSeed += &a.pick(7, id) != &a.pick(8, id) ? 1 : 0;
  }
  EXPECT_EQ(seen.size(), a.prompts().size());  // 2000 draws over 48 prompts reach them all
  EXPECT_GT(differentUnderOtherSeed, 1800u);
}

TEST(ShareGptPrompts, NoUsablePromptIsAnErrorNamingTheFile) {
  const auto d = ShareGptDataset::fromText(R"([{"id": 1, "conversations": [{"from": "human", "value": "a b"}, {"from": "gpt", "value": "c"}]}])", "t.json");
  ShareGptSpec spec;
  spec.minInputTokens = 10;
  PromptTokenCounter approx(nullptr);
  try {
    ShareGptPrompts p(d, spec, approx);
    FAIL();
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "t.json");
    EXPECT_NE(e.reason().find("1 shorter than min_input_tokens 10"), std::string::npos) << e.what();
  }
}

TEST(ShareGptPrompts, LaterTurnsFollowTheAlternationAndTheSamePolicy) {
  const nlohmann::json j = {
      {{"id", "c"},
       {"conversations",
        {{{"from", "human"}, {"value", words(3)}}, {{"from", "gpt"}, {"value", words(4)}},
         {{"from", "human"}, {"value", words(30)}}, {{"from", "gpt"}, {"value", words(50)}},
         {{"from", "human"}, {"value", "third"}}, {{"from", "gpt"}, {"value", "ok"}},
         {{"from", "human"}, {"value", "unanswered"}}, {{"from", "human"}, {"value", "again"}},
         {{"from", "gpt"}, {"value", "never replayed"}}}}}};
  const auto d = ShareGptDataset::fromJson(j, "t.json");
  ShareGptSpec spec;
  spec.maxInputTokens = 20;
  spec.maxOutputTokens = 40;
  PromptTokenCounter approx(nullptr);
  ShareGptPrompts p(d, spec, approx);
  const ShareGptPrompt& prompt = p.prompts().at(0);
  ASSERT_EQ(prompt.laterTurns.size(), 2u);
  EXPECT_EQ(prompt.laterTurns[0].inputTokens, 20u);  // cut by keep_start
  EXPECT_EQ(prompt.laterTurns[0].outputTokens, 40u);  // clamped
  EXPECT_EQ(p.humanText(prompt, 1), words(20));
  EXPECT_EQ(prompt.laterTurns[1].inputTokens, 1u);
  EXPECT_EQ(prompt.laterTurns[1].outputTokens, 1u);
  EXPECT_EQ(p.humanText(prompt, 2), "third");
  EXPECT_EQ(p.humanText(prompt, 0), words(3));
  EXPECT_THROW(p.humanText(prompt, 3), std::out_of_range);
}
