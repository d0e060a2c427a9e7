// Cost of the client's output-token count: a worker tokenizing a finished request's reply
// with the Qwen3 tokenizer (ReplyTokenQueue: queue the record and its text, count it later).
// Replies are 256-token slices of real assistant turns (the ShareGPT sample) and of the
// multilingual agreement corpus, plus the embedded mock's "tok tok ..." text. Time per
// iteration = one reply queued and counted.
#include <fstream>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "core/engine/reply_token_queue.h"
#include "core/tokenizer/tokenizer.h"

using plumbline::engine::ReplyTokenQueue;
using plumbline::metrics::RequestRecord;
using plumbline::tokenizer::Tokenizer;

namespace {

constexpr size_t kReplyTokens = 256;
const std::string kSource = PLUMBLINE_SOURCE_DIR;

Tokenizer& qwen3() {
  static Tokenizer tokenizer = Tokenizer::fromFile(kSource + "/tests/tokenizer/qwen3/tokenizer.json");
  return tokenizer;
}

/// `text` cut into consecutive slices of kReplyTokens tokens, decoded back to text.
std::vector<std::string> slices(const std::string& text) {
  // A separate tokenizer builds the inputs, so the measured one starts with a cold word cache.
  Tokenizer cutter = Tokenizer::fromFile(kSource + "/tests/tokenizer/qwen3/tokenizer.json");
  const std::vector<int32_t> ids = cutter.encode(text);
  std::vector<std::string> out;
  for (size_t at = 0; at + kReplyTokens <= ids.size(); at += kReplyTokens)
    out.push_back(cutter.decode(std::span<const int32_t>(ids).subspan(at, kReplyTokens)));
  return out;
}

std::string chatReplies() {
  std::ifstream in(kSource + "/workloads/datasets/sample_chat.json");
  std::string joined;
  for (const auto& conv : nlohmann::json::parse(in))
    for (const auto& turn : conv.at("conversations"))
      if (turn.at("from") == "gpt") joined += turn.at("value").get<std::string>() + "\n";
  return joined;
}

std::string corpus() {
  std::ifstream in(kSource + "/tests/tokenizer/corpus.json");
  std::string joined;
  for (const auto& entry : nlohmann::json::parse(in)) joined += entry.get<std::string>() + "\n";
  return joined;
}

void countReplies(benchmark::State& state, const std::vector<std::string>& replies) {
  ReplyTokenQueue queue(qwen3());
  std::vector<RequestRecord> out;
  RequestRecord r;
  r.firstTokenNs = 1;
  size_t i = 0, tokens = 0;
  for (auto _ : state) {
    queue.add(r, replies[i++ % replies.size()], 0);
    queue.countAll(out);
    tokens += static_cast<size_t>(out.back().outputTokensClient);
    out.clear();
  }
  state.counters["tokens/reply"] = static_cast<double>(tokens) / static_cast<double>(state.iterations());
  state.counters["distinct replies"] = static_cast<double>(replies.size());
}

void BM_CountChatReply256(benchmark::State& state) {
  static const std::vector<std::string> replies = slices(chatReplies());
  countReplies(state, replies);
}

void BM_CountMultilingualReply256(benchmark::State& state) {
  static const std::vector<std::string> replies = slices(corpus());
  countReplies(state, replies);
}

void BM_CountMockReply256(benchmark::State& state) {
  std::string text;
  for (size_t i = 0; i < kReplyTokens; ++i) text += "tok ";
  countReplies(state, {text});
}

}  // namespace

BENCHMARK(BM_CountChatReply256)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CountMultilingualReply256)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CountMockReply256)->Unit(benchmark::kMicrosecond);
