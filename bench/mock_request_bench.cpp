// The mock's cost to read one request body: simdjson parse, word count (its tokenization) and
// the prompt hash that draws the natural length, for chat prompts of 64 to 32,768 words (a
// 32k-token prompt is the ~190 KB body of bench/long_prompts.sh). With prefix-block hashing on
// (the KV-cache simulation), every word is hashed as well.
#include <benchmark/benchmark.h>

#include <string>

#include "core/mock/mock_request.h"

namespace {

std::string chatBody(int64_t words) {
  static const char* const kWords[] = {"river", "of",      "quietly",  "stone",
                                       "a",     "hundred", "lanterns", "east"};
  std::string prompt;
  for (int64_t i = 0; i < words; ++i) {
    if (i != 0) prompt += (i % 17 == 0) ? "\\n" : " ";  // an escaped newline now and then
    prompt += kWords[(i * 7 + i / 8) % 8];
  }
  return R"({"model":"mock","messages":[{"role":"user","content":")" + prompt +
         R"("}],"max_tokens":16,"ignore_eos":true,"temperature":0,"stream":true})";
}

void parse(benchmark::State& state, int blockWords) {
  const std::string body = chatBody(state.range(0));
  std::string error;
  for (auto _ : state) {
    auto req =
        plumbline::mock::parseMockRequest(plumbline::mock::ApiKind::Chat, body, error, blockWords);
    if (!req || req->promptTokens != state.range(0))
      state.SkipWithError("the body did not parse as written");
    benchmark::DoNotOptimize(req);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
}

void BM_MockParseRequest(benchmark::State& state) { parse(state, 0); }
void BM_MockParseRequestWithBlockHashes(benchmark::State& state) { parse(state, 16); }
BENCHMARK(BM_MockParseRequest)->Arg(64)->Arg(2048)->Arg(32768)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MockParseRequestWithBlockHashes)->Arg(32768)->Unit(benchmark::kMicrosecond);

}  // namespace
