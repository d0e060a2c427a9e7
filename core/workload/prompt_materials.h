#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/tokenizer/synthetic_prompt.h"
#include "core/tokenizer/tokenizer.h"
#include "core/workload/prompt_spec.h"
#include "core/workload/sharegpt_dataset.h"
#include "core/workload/sharegpt_prompts.h"

namespace plumbline::workload {

/// What a prompt spec needs loaded before a run: the tokenizer, the synthetic-prompt builder
/// under it, the ShareGPT file and its prompts. Loaded once per process (coordinator or
/// worker), before t0; not thread-safe (the tokenizer reuses buffers).
struct PromptMaterials {
  std::unique_ptr<tokenizer::Tokenizer> tokenizer;             ///< null: the word approximation
  std::unique_ptr<tokenizer::SyntheticPromptBuilder> synthetic;  ///< with a tokenizer only
  std::unique_ptr<ShareGptDataset> dataset;
  std::unique_ptr<ShareGptPrompts> sharegpt;
  int64_t loadNs = 0;  ///< how long loading took (the coordinator leaves workers that long)
};

/// Loads the tokenizer and dataset a spec names. `path` is the spec's JSON path
/// ("requests.prompt") for errors. Throws WorkloadError naming the file or key. With a
/// tokenizer and synthetic prompts, also checks that composed prompts are exact under it
/// (lengths 1..64 and a spread up to 8192), so a run never relies on an unproven claim.
std::shared_ptr<PromptMaterials> loadPromptMaterials(const PromptSpec& spec, const std::string& path);

}  // namespace plumbline::workload
