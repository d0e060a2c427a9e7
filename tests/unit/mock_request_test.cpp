// Request parsing, mock tokenization and output length of `plumbline mock`.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/mock/completion_formatter.h"
#include "core/mock/mock_request.h"
#include "tests/unit/word_count_reference.h"

namespace {

using plumbline::mock::ApiKind;
using plumbline::mock::completionTokens;
using plumbline::mock::CompletionFormatter;
using plumbline::mock::countWords;
using plumbline::mock::MockRequest;
using plumbline::mock::parseMockRequest;

MockRequest parseOk(ApiKind kind, const std::string& body) {
  std::string error;
  auto req = parseMockRequest(kind, body, error);
  EXPECT_TRUE(req.has_value()) << error;
  return req.value_or(MockRequest{});
}

std::string parseError(ApiKind kind, const std::string& body) {
  std::string error;
  EXPECT_FALSE(parseMockRequest(kind, body, error).has_value()) << body;
  return error;
}

TEST(MockRequest, CountsWhitespaceSeparatedWords) {
  EXPECT_EQ(countWords(""), 0);
  EXPECT_EQ(countWords("   "), 0);
  EXPECT_EQ(countWords("one"), 1);
  EXPECT_EQ(countWords(" one\ttwo\n\nthree  "), 3);
}

// countWords reads sixty-four bytes at a time: every kind of whitespace, bytes next to the
// whitespace range and high bytes, at every offset across those steps, as a byte-by-byte reading.
TEST(MockRequest, CountsWordsAsAByteByByteReadingDoes) {
  const std::string alphabet = std::string("ab \t\n\v\f\r\x08\x0e\x1f!") + '\xa0' + '\x89' + '\xff';
  uint64_t state = 12345;
  for (int trial = 0; trial < 5000; ++trial) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const size_t length = (state >> 33) % 200;
    std::string text;
    for (size_t i = 0; i < length; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      text += alphabet[(state >> 33) % alphabet.size()];
    }
    const int64_t expected = plumbline::test::wordsByteByByte(text);
    ASSERT_EQ(countWords(text), expected) << "trial " << trial << ", length " << length;
  }
}

// The prompt hash reads eight bytes at a time: a change in any byte, at any place in those
// steps, changes it, and the natural length it draws keeps its mean when prompts differ only
// in the high bytes of a step.
TEST(MockRequest, PromptHashDependsOnEveryByte) {
  const std::string base(40, 'a');
  std::set<uint64_t> hashes{
      parseOk(ApiKind::Completions, R"({"prompt":")" + base + R"("})").promptHash};
  for (size_t i = 0; i < base.size(); ++i) {
    std::string changed = base;
    changed[i] = 'b';
    hashes.insert(parseOk(ApiKind::Completions, R"({"prompt":")" + changed + R"("})").promptHash);
  }
  EXPECT_EQ(hashes.size(), base.size() + 1);
  double sum = 0;
  constexpr int kPrompts = 4000;
  for (int i = 0; i < kPrompts; ++i) {
    const std::string digits = std::to_string(10'000'000 + i);  // eight bytes, the first step
    const auto req = parseOk(ApiKind::Completions,
                             R"({"prompt":"abcd)" + digits.substr(4) + R"( and more after it"})");
    sum += static_cast<double>(completionTokens(req, 64.0));
  }
  EXPECT_NEAR(sum / kPrompts, 64.0, 3.0);
}

TEST(MockRequest, ParsesChatFields) {
  const auto req = parseOk(ApiKind::Chat,
                           R"({"model":"m","stream":true,"stream_options":{"include_usage":true},"ignore_eos":true,)"
                           R"("max_tokens":7,"messages":[{"role":"user","content":"a b"},)"
                           R"({"role":"user","content":[{"type":"text","text":"c d e"}]}]})");
  EXPECT_EQ(req.model, "m");
  EXPECT_TRUE(req.stream);
  EXPECT_TRUE(req.includeUsage);
  EXPECT_TRUE(req.ignoreEos);
  EXPECT_EQ(req.maxTokens, 7);
  EXPECT_EQ(req.promptTokens, 5);
  EXPECT_EQ(completionTokens(req, 128.0), 7);
}

TEST(MockRequest, ParsesCompletionPromptForms) {
  EXPECT_EQ(parseOk(ApiKind::Completions, R"({"prompt":"x y z"})").promptTokens, 3);
  EXPECT_EQ(parseOk(ApiKind::Completions, R"({"prompt":["x y","z"]})").promptTokens, 3);
  EXPECT_EQ(parseOk(ApiKind::Completions, R"({"prompt":[101, 102, 103, 104]})").promptTokens, 4);
  EXPECT_EQ(parseOk(ApiKind::Completions, R"({"prompt":"x","max_completion_tokens":2,"ignore_eos":true})").maxTokens, 2);
}

TEST(MockRequest, RejectsInvalidBodies) {
  EXPECT_NE(parseError(ApiKind::Chat, R"({"messages":)").find("malformed"), std::string::npos);
  EXPECT_NE(parseError(ApiKind::Chat, R"({"prompt":"x"})").find("messages"), std::string::npos);
  EXPECT_NE(parseError(ApiKind::Completions, R"({"messages":[]})").find("prompt"), std::string::npos);
  EXPECT_NE(parseError(ApiKind::Completions, R"({"prompt":"x","max_tokens":0})").find("max_tokens"), std::string::npos);
  EXPECT_NE(parseError(ApiKind::Completions, R"({"prompt":"x","stream":"yes"})").find("stream"), std::string::npos);
  EXPECT_FALSE(parseError(ApiKind::Chat, "[1,2]").empty());
  EXPECT_FALSE(parseError(ApiKind::Chat, "").empty());
}

TEST(MockRequest, NaturalLengthIsDeterministicWithTheConfiguredMean) {
  double sum = 0;
  constexpr int kPrompts = 4000;
  for (int i = 0; i < kPrompts; ++i) {
    const auto req = parseOk(ApiKind::Completions, R"({"prompt":"prompt number )" + std::to_string(i) + R"("})");
    const int64_t n = completionTokens(req, 64.0);
    ASSERT_GE(n, 1);
    ASSERT_LE(n, 127);
    EXPECT_EQ(n, completionTokens(req, 64.0));
    sum += static_cast<double>(n);
  }
  EXPECT_NEAR(sum / kPrompts, 64.0, 3.0);
}

TEST(MockRequest, MaxTokensCapsTheNaturalLength) {
  auto req = parseOk(ApiKind::Completions, R"({"prompt":"x","max_tokens":1})");
  EXPECT_EQ(completionTokens(req, 128.0), 1);
}

TEST(CompletionFormatter, EscapesTheEchoedModel) {
  auto req = parseOk(ApiKind::Chat, R"({"model":"a\"b\\c","messages":[{"content":"x"}]})");
  std::string body;
  CompletionFormatter(req, 2, 9, 1700000000).appendFullBody(body);
  const auto json = nlohmann::json::parse(body);
  EXPECT_EQ(json["model"], "a\"b\\c");
  EXPECT_EQ(json["id"], "chatcmpl-mock-9");
  EXPECT_EQ(json["created"], 1700000000);
  EXPECT_EQ(json["choices"][0]["message"]["content"], "tok tok ");
  EXPECT_EQ(json["choices"][0]["finish_reason"], "stop");
}

TEST(CompletionFormatter, AThinkingReplyBeginsWithReasoningContent) {
  auto chat = parseOk(ApiKind::Chat, R"({"model":"m","stream":true,"messages":[{"content":"x"}]})");
  const CompletionFormatter thinker(chat, 4, 1, 0, 2);
  auto delta = [&](int64_t index, int64_t count) {
    std::string event;
    thinker.appendTokenChunk(event, index, count);
    EXPECT_EQ(event.rfind("data: ", 0), 0u);
    return nlohmann::json::parse(event.substr(6))["choices"][0]["delta"];
  };
  EXPECT_EQ(delta(0, 1), (nlohmann::json{{"role", "assistant"}, {"reasoning_content", "tok "}}));
  EXPECT_EQ(delta(1, 1), (nlohmann::json{{"reasoning_content", "tok "}}));
  EXPECT_EQ(delta(2, 1), (nlohmann::json{{"content", "tok "}}));
  // A speculative step across the turn carries the end of the thinking and the answer's start.
  EXPECT_EQ(delta(1, 2), (nlohmann::json{{"reasoning_content", "tok "}, {"content", "tok "}}));
  std::string body;
  thinker.appendFullBody(body);
  const auto whole = nlohmann::json::parse(body);
  EXPECT_EQ(whole["choices"][0]["message"]["reasoning_content"], "tok tok ");
  EXPECT_EQ(whole["choices"][0]["message"]["content"], "tok tok ");
  EXPECT_EQ(whole["usage"]["completion_tokens"], 4);  // thinking counted with the answer
  body.clear();
  CompletionFormatter(chat, 1, 1, 0, 5).appendFullBody(body);  // ended while still thinking
  EXPECT_EQ(nlohmann::json::parse(body)["choices"][0]["message"]["content"], "");
  // Completions have no reasoning field: their text is all answer.
  auto text = parseOk(ApiKind::Completions, R"({"model":"m","prompt":"x"})");
  std::string event;
  CompletionFormatter(text, 4, 1, 0, 2).appendTokenChunk(event, 0);
  EXPECT_EQ(nlohmann::json::parse(event.substr(6))["choices"][0]["text"], "tok ");
}

TEST(MockRequest, ReadsTemperatureAndHashesPromptBlocks) {
  std::string error;
  const std::string body =
      R"({"temperature":0.7,"messages":[{"role":"system","content":"a b c d e"},{"role":"user","content":"f g h i"}]})";
  const auto req = parseMockRequest(ApiKind::Chat, body, error, 4);
  ASSERT_TRUE(req.has_value()) << error;
  EXPECT_DOUBLE_EQ(req->temperature, 0.7);
  EXPECT_EQ(req->blockHashes.size(), 2u);  // 9 words: two full blocks of 4
  // The same prefix gives the same chained hashes; a different first block changes all.
  const auto same = parseMockRequest(ApiKind::Chat, R"({"messages":[{"content":"a b c d e f g h z z"}]})", error, 4);
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->blockHashes[0], req->blockHashes[0]);
  EXPECT_EQ(same->blockHashes[1], req->blockHashes[1]);
  const auto other = parseMockRequest(ApiKind::Chat, R"({"messages":[{"content":"x b c d e f g h"}]})", error, 4);
  ASSERT_TRUE(other.has_value());
  EXPECT_NE(other->blockHashes[1], req->blockHashes[1]);
  EXPECT_TRUE(parseOk(ApiKind::Chat, R"({"messages":[{"content":"a b c d"}]})").blockHashes.empty());
  EXPECT_DOUBLE_EQ(parseOk(ApiKind::Chat, R"({"messages":[]})").temperature, 1.0);
}

// Block hashes are read 64 bytes per step: they depend on the words alone, not on the
// whitespace between them nor on where a word falls against those steps (words of 1 to 20
// bytes, some across a step's end), and a changed byte changes its block and those after it.
TEST(MockRequest, BlockHashesDependOnTheWordsAloneWhereverTheyFall) {
  std::vector<std::string> words;
  for (int i = 0; i < 120; ++i) {
    std::string w;
    for (int k = 0; k <= (i * 7) % 20; ++k) w += static_cast<char>('a' + (i + k * 3) % 26);
    words.push_back(w);
  }
  const auto hashesOf = [](const std::string& prompt) {
    std::string error;
    const auto req =
        parseMockRequest(ApiKind::Completions, R"({"prompt":")" + prompt + R"("})", error, 8);
    EXPECT_TRUE(req.has_value()) << error;
    return req ? req->blockHashes : std::vector<uint64_t>{};
  };
  std::string plain;
  for (const std::string& w : words) plain += w + " ";
  const std::vector<uint64_t> expected = hashesOf(plain);
  ASSERT_EQ(expected.size(), 15u);  // 120 words in blocks of 8
  for (int lead = 0; lead < 70; ++lead) {
    std::string spaced(static_cast<size_t>(lead), ' ');
    for (size_t i = 0; i < words.size(); ++i)
      spaced += words[i] + (i % 5 == 0 ? "\\t\\n " : i % 3 == 0 ? "  " : " ");
    ASSERT_EQ(hashesOf(spaced), expected) << "with " << lead << " leading spaces";
  }
  for (size_t changed : {0u, 7u, 8u, 63u, 64u, 119u}) {
    std::string prompt;
    for (size_t i = 0; i < words.size(); ++i)
      prompt += (i == changed ? words[i] + "x" : words[i]) + " ";
    const std::vector<uint64_t> got = hashesOf(prompt);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t b = 0; b < got.size(); ++b) {
      if (b < changed / 8)
        EXPECT_EQ(got[b], expected[b]) << "word " << changed << ", block " << b;
      else
        EXPECT_NE(got[b], expected[b]) << "word " << changed << ", block " << b;
    }
  }
}

}  // namespace
