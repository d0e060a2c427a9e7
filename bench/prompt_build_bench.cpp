// What building one request's prompt costs, per path (synthetic words, synthetic text composed
// for a tokenizer, the same built with re-counting, a ShareGPT prompt), for several lengths.
// The run path uses PromptWriter::append; build() with its re-count is the cost avoided.
#include <benchmark/benchmark.h>

#include "core/engine/prompt_writer.h"
#include "core/workload/prompt_materials.h"

using plumbline::engine::PromptWriter;
using plumbline::workload::PromptSpec;
using plumbline::workload::SessionPlan;

namespace {

const std::string kQwen3 = std::string(PLUMBLINE_SOURCE_DIR) + "/tests/tokenizer/qwen3/tokenizer.json";

PromptSpec spec(bool tokenizer, bool sharegpt) {
  PromptSpec s;
  if (tokenizer) s.tokenizer = s.resolvedTokenizer = kQwen3;
  if (sharegpt) {
    s.source = "sharegpt";
    plumbline::workload::ShareGptSpec g;
    g.file = g.resolvedFile = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/datasets/sample_chat.json";
    s.sharegpt = g;
  }
  s.materials = plumbline::workload::loadPromptMaterials(s, "requests.prompt");
  return s;
}

void appendPrompts(benchmark::State& state, PromptWriter& writer) {
  std::string out;
  SessionPlan session;
  session.inputTokens = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) {
    out.clear();
    writer.append(session, out);
    ++session.id;
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["bytes"] = static_cast<double>(out.size());
}

void BM_PromptWordsApproximate(benchmark::State& state) {
  static PromptWriter writer(spec(false, false), 1);
  appendPrompts(state, writer);
}

void BM_PromptComposedForTokenizer(benchmark::State& state) {
  static PromptWriter writer(spec(true, false), 1);
  appendPrompts(state, writer);
}

void BM_PromptShareGpt(benchmark::State& state) {
  static PromptWriter writer(spec(true, true), 1);
  appendPrompts(state, writer);
}

// What an exact prompt would cost if it were counted per request (SyntheticPromptBuilder::build).
void BM_PromptBuiltWithRecount(benchmark::State& state) {
  static PromptSpec s = spec(true, false);
  uint64_t seed = 0;
  for (auto _ : state) benchmark::DoNotOptimize(s.materials->synthetic->build(static_cast<size_t>(state.range(0)), ++seed));
}

void BM_LoadQwen3Materials(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(spec(true, false).materials.get());
}

}  // namespace

BENCHMARK(BM_PromptWordsApproximate)->Arg(128)->Arg(512)->Arg(2048)->Arg(8192)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PromptComposedForTokenizer)->Arg(128)->Arg(512)->Arg(2048)->Arg(8192)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PromptBuiltWithRecount)->Arg(128)->Arg(512)->Arg(2048)->Arg(8192)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PromptShareGpt)->Arg(0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LoadQwen3Materials)->Unit(benchmark::kMillisecond)->Iterations(3);
