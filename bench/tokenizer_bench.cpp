// Loading time and encoding speed of the Qwen3 tokenizer: tokens per second on a 32k-token
// synthetic prompt and on the multilingual agreement corpus, with a warm word cache and with a
// fresh tokenizer.
#include <fstream>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "core/tokenizer/synthetic_prompt.h"
#include "core/tokenizer/tokenizer.h"

using plumbline::tokenizer::SyntheticPromptBuilder;
using plumbline::tokenizer::Tokenizer;

namespace {

const std::string kDataDir = std::string(PLUMBLINE_SOURCE_DIR) + "/tests/tokenizer/";

Tokenizer loadQwen3() { return Tokenizer::fromFile(kDataDir + "qwen3/tokenizer.json"); }

const std::string& corpusText() {
  static const std::string text = [] {
    std::ifstream in(kDataDir + "corpus.json");
    std::string joined;
    for (const auto& entry : nlohmann::json::parse(in)) joined += entry.get<std::string>() + "\n";
    return joined;
  }();
  return text;
}

void encodeText(benchmark::State& state, Tokenizer& tokenizer, const std::string& text) {
  std::vector<int32_t> ids;
  size_t tokens = 0;
  for (auto _ : state) {
    ids.clear();
    tokenizer.encodeInto(text, ids);
    tokens += ids.size();
    benchmark::DoNotOptimize(ids.data());
  }
  state.counters["tokens/s"] =
      benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
  state.counters["tokens"] = static_cast<double>(ids.size());
}

void BM_EncodeSynthetic32k(benchmark::State& state) {
  static Tokenizer tokenizer = loadQwen3();
  static const std::string prompt = SyntheticPromptBuilder(tokenizer).build(32768, 1);
  encodeText(state, tokenizer, prompt);
}

void BM_EncodeCorpus(benchmark::State& state) {
  static Tokenizer tokenizer = loadQwen3();
  encodeText(state, tokenizer, corpusText());
}

// The first encode of a text by a fresh tokenizer: every word goes through the merge loop.
void BM_EncodeCorpusColdCache(benchmark::State& state) {
  const std::string& text = corpusText();
  size_t tokens = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Tokenizer tokenizer = loadQwen3();
    state.ResumeTiming();
    tokens += tokenizer.countTokens(text);
  }
  state.counters["tokens/s"] =
      benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
}

// Loading tokenizer.json (Qwen3: 11 MB, 151k vocabulary entries, 151k merges): what every
// process that counts tokens pays at start (the coordinator and each worker).
void BM_LoadQwen3(benchmark::State& state) {
  for (auto _ : state) {
    Tokenizer tokenizer = loadQwen3();
    benchmark::DoNotOptimize(tokenizer.vocabSize());
  }
}

}  // namespace

BENCHMARK(BM_LoadQwen3)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_EncodeSynthetic32k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeCorpus)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncodeCorpusColdCache)->Unit(benchmark::kMillisecond)->Iterations(3);
