// What a validation of a workload with a tokenizer and a ShareGPT dataset costs the Designer:
// the first (loading the Qwen3 tokenizer, checking synthetic composition, counting the dataset's
// prompts: BM_LoadMaterials), and every one after an edit that left those files and
// requests.prompt alone (BM_Validate: the materials are kept, prompt_materials_cache.h).
#include <benchmark/benchmark.h>

#include <string>

#include "core/workload/prompt_materials.h"
#include "core/workload/workload_loader.h"

using namespace plumbline::workload;

namespace {

const std::string kCatalog = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/";

void BM_LoadMaterials(benchmark::State& state, const std::string& file) {
  const WorkloadSpec spec = loadWorkloadFile(kCatalog + file);
  for (auto _ : state)
    benchmark::DoNotOptimize(loadPromptMaterials(spec.requests.prompt, "requests.prompt"));
}

void BM_Validate(benchmark::State& state, const std::string& file) {
  for (auto _ : state) benchmark::DoNotOptimize(loadWorkloadFile(kCatalog + file));
}

}  // namespace

BENCHMARK_CAPTURE(BM_LoadMaterials, chat_sharegpt_sample, std::string("chat_sharegpt_sample.json"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Validate, chat_sharegpt_sample, std::string("chat_sharegpt_sample.json"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadMaterials, multi_turn_sharegpt, std::string("multi_turn_sharegpt.json"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Validate, multi_turn_sharegpt, std::string("multi_turn_sharegpt.json"))
    ->Unit(benchmark::kMillisecond);
