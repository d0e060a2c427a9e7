// The client's output-token count: ReplyTokenQueue tokenizes replies after their requests
// finished, in slices that respect a deadline, without reordering or touching other fields.
#include <gtest/gtest.h>

#include "core/engine/reply_token_queue.h"
#include "core/engine/token_count_basis.h"
#include "core/tokenizer/tokenizer.h"
#include "core/workload/workload_loader.h"
#include "tests/unit/qwen3_tokenizer.h"
#include "tests/unit/workload_test_support.h"

using plumbline::engine::ReplyTokenQueue;
using plumbline::metrics::ErrorClass;
using plumbline::metrics::RequestRecord;
using plumbline::testing::kQwen3TokenizerFile;
using plumbline::testing::qwen3;
using plumbline::tokenizer::Tokenizer;

namespace {

RequestRecord streamed(uint64_t session, int32_t chunks) {
  RequestRecord r;
  r.sessionId = session;
  r.plannedNs = 10;
  r.sendNs = 11;
  r.firstTokenNs = 20;
  r.endNs = 30;
  r.inputTokensServer = 7;
  r.outputTokensServer = 99;
  r.inputTokensClient = 6;
  r.outputTokensClient = chunks;
  r.chunks = static_cast<uint32_t>(chunks);
  return r;
}

/// A fake clock that advances by `step` per reading.
struct SteppingClock {
  int64_t now = 0, step = 0;
  int64_t operator()() { return now += step; }
};

}  // namespace

TEST(ReplyTokenQueue, AReasoningModelsThoughtCountsWithItsAnswer) {
  ReplyTokenQueue q(qwen3());
  q.add(streamed(0, 3), "The answer is 4.", "Two plus two: add them.", 0);
  q.add(streamed(1, 3), "", "{\"city\": \"Paris\"}", 0);  // a tool call alone
  std::vector<RequestRecord> out;
  q.countAll(out);
  Tokenizer reference = Tokenizer::fromFile(kQwen3TokenizerFile);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(
      out[0].outputTokensClient,
      static_cast<int32_t>(reference.encode("The answer is 4.\nTwo plus two: add them.").size()));
  EXPECT_GT(out[0].outputTokensClient,
            static_cast<int32_t>(reference.encode("The answer is 4.").size()));
  EXPECT_EQ(out[1].outputTokensClient,
            static_cast<int32_t>(reference.encode("\n{\"city\": \"Paris\"}").size()));
}

TEST(ReplyTokenQueue, CountsEachReplyWithTheTokenizerAndKeepsOrderAndOtherFields) {
  ReplyTokenQueue q(qwen3());
  const std::vector<std::string> replies = {"Hello, world!", "  spaced\n\n  out\ttext ", "日本語のテキスト 🎉🎉",
                                            "def f(x):\n    return x ** 2\n", ""};
  for (size_t i = 0; i < replies.size(); ++i) q.add(streamed(i, 3), replies[i], 0);
  EXPECT_EQ(q.size(), replies.size());
  std::vector<RequestRecord> out;
  q.countAll(out);
  EXPECT_TRUE(q.empty());
  Tokenizer reference = Tokenizer::fromFile(kQwen3TokenizerFile);  // a fresh instance: no shared cache
  ASSERT_EQ(out.size(), replies.size());
  for (size_t i = 0; i < replies.size(); ++i) {
    EXPECT_EQ(out[i].sessionId, i);
    EXPECT_EQ(out[i].outputTokensClient, static_cast<int32_t>(reference.encode(replies[i]).size())) << replies[i];
    EXPECT_EQ(out[i].outputTokensServer, 99);
    EXPECT_EQ(out[i].inputTokensClient, 6);
    EXPECT_EQ(out[i].chunks, 3u);
    EXPECT_EQ(out[i].endNs, 30);
  }
  EXPECT_EQ(out[0].outputTokensClient, 4);  // "Hello" "," " world" "!"
  EXPECT_EQ(out[4].outputTokensClient, 0);
}

TEST(ReplyTokenQueue, CountNowMatchesTheQueuedCount) {
  ReplyTokenQueue q(qwen3());
  const std::string text = "The quick brown fox jumps over the lazy dog. Again and again.";
  q.add(streamed(1, 1), text, 0);
  std::vector<RequestRecord> out;
  q.countAll(out);
  EXPECT_EQ(q.countNow(text), out.at(0).outputTokensClient);
  EXPECT_GT(q.countNow(text), 10);
}

TEST(ReplyTokenQueue, StopsBeforeADeadlineItCannotMeet) {
  ReplyTokenQueue q(qwen3());
  for (uint64_t i = 0; i < 3; ++i) q.add(streamed(i, 1), std::string(400, 'a'), 0);
  std::vector<RequestRecord> out;
  SteppingClock clock{1'000, 0};
  // Deadline already passed, nothing overdue: nothing is counted.
  EXPECT_EQ(q.countUntil(500, 1'000'000, std::ref(clock), out), 0u);
  EXPECT_TRUE(out.empty());
  // A deadline shorter than the estimated cost of the next reply: nothing either.
  EXPECT_EQ(q.countUntil(1'000 + q.nextCostNs() - 1, 1'000'000, std::ref(clock), out), 0u);
  // Enough time for everything.
  EXPECT_EQ(q.countUntil(INT64_MAX, 1'000'000, std::ref(clock), out), 3u);
  EXPECT_EQ(out.size(), 3u);
}

TEST(ReplyTokenQueue, AnOverdueReplyIsCountedEvenWithoutTime) {
  ReplyTokenQueue q(qwen3());
  q.add(streamed(1, 1), "first", 0);
  q.add(streamed(2, 1), "second", 0);
  q.add(streamed(3, 1), "third", 900);
  std::vector<RequestRecord> out;
  SteppingClock clock{1'000, 0};
  // Deadline passed; the first two waited 1000 >= 1000: one per call, oldest first.
  EXPECT_EQ(q.countUntil(0, 1'000, std::ref(clock), out), 1u);
  EXPECT_EQ(q.countUntil(0, 1'000, std::ref(clock), out), 1u);
  EXPECT_EQ(q.countUntil(0, 1'000, std::ref(clock), out), 0u);  // the third waited only 100
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].sessionId, 1u);
  EXPECT_EQ(out[1].sessionId, 2u);
}

TEST(ReplyTokenQueue, LearnsTheCostPerByte) {
  ReplyTokenQueue q(qwen3());
  const std::string text(1000, 'x');
  q.add(streamed(1, 1), text, 0);
  const int64_t before = q.nextCostNs();
  std::vector<RequestRecord> out;
  SteppingClock clock{0, 1'000'000};  // every reading 1 ms later: 1000 ns per byte measured
  q.countUntil(INT64_MAX, INT64_MAX, std::ref(clock), out);
  q.add(streamed(2, 1), text, 0);
  EXPECT_GT(q.nextCostNs(), before);
}

TEST(ReplyTokenQueue, OnlyRepliesWithTextAreCounted) {
  RequestRecord r = streamed(1, 2);
  EXPECT_TRUE(ReplyTokenQueue::hasReply(r, true));
  r.firstTokenNs = -1;  // no content streamed (e.g. an HTTP error)
  EXPECT_FALSE(ReplyTokenQueue::hasReply(r, true));
  EXPECT_TRUE(ReplyTokenQueue::hasReply(r, false));  // a whole body that succeeded
  r.error = ErrorClass::Http5xx;
  EXPECT_FALSE(ReplyTokenQueue::hasReply(r, false));
}

TEST(TokenCountBasis, LabelsTheClientCountsByWhatTheyAre) {
  using plumbline::engine::describeTokenCounts;
  auto doc = plumbline::testing::validDocument();
  doc["target"] = {{"url", "embedded"}, {"stream", true}};
  plumbline::metrics::RunSummary s;
  describeTokenCounts(plumbline::workload::parseWorkload(doc), s);
  EXPECT_EQ(s.clientOutputBasis, "chunks");
  EXPECT_EQ(s.clientInputBasis, "approximate");
  EXPECT_EQ(s.clientOutputCount, "content chunks (one per streamed delta with generated text)");
  doc["target"]["stream"] = false;
  describeTokenCounts(plumbline::workload::parseWorkload(doc), s);
  EXPECT_EQ(s.clientOutputBasis, "none");
  const std::string file = "tests/tokenizer/qwen3/tokenizer.json";
  doc["requests"]["prompt"] = {{"source", "synthetic"}, {"tokenizer", file}};
  describeTokenCounts(plumbline::workload::parseWorkload(doc, PLUMBLINE_SOURCE_DIR), s);
  EXPECT_EQ(s.clientOutputBasis, "tokenizer:" + file);
  EXPECT_EQ(s.clientInputBasis, "tokenizer:" + file);
  EXPECT_EQ(s.clientOutputCount, "reply text as received, tokenized (tokenizer: " + file + ")");
}
