// Fuzzes the ShareGPT loader and prompt sampler: any text is either a dataset or a
// WorkloadError naming the file, entry and field; a dataset is then filtered, truncated and
// sampled (word approximation) without crashing.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/workload/sharegpt_dataset.h"
#include "core/workload/sharegpt_prompts.h"
#include "core/workload/workload_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace plumbline::workload;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ShareGptDataset dataset = ShareGptDataset::fromText(text, "fuzz.json");
    ShareGptSpec spec;
    spec.minInputTokens = 2;
    spec.maxInputTokens = 8;
    spec.maxOutputTokens = 4;
    PromptTokenCounter counter(nullptr);
    const ShareGptPrompts prompts(dataset, spec, counter);
    for (uint64_t id = 0; id < 16; ++id) {
      const auto& p = prompts.pick(1, id);
      if (p.inputTokens < 2 || p.inputTokens > 8 || p.outputTokens < 1 || p.outputTokens > 4) __builtin_trap();
    }
  } catch (const WorkloadError&) {
  }
  return 0;
}
