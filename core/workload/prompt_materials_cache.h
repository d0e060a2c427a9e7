#pragma once
// The last prompt materials loaded, kept for the next validation of the same workload.
#include <memory>
#include <string>

#include "core/workload/prompt_materials.h"

namespace plumbline::workload {

/// loadPromptMaterials, once per version of the tokenizer and dataset files and of the
/// requests.prompt settings. The studio validates a workload after every pause in editing, and
/// each validation of chat_sharegpt_sample.json loaded the Qwen3 tokenizer and counted the
/// dataset's prompts again (~0.4 s). Keeps the last materials loaded; a file whose size or
/// modification time changed is read again, one that cannot be examined is read as
/// loadPromptMaterials reads it (its error names it). Errors are not kept. Thread-safe.
///
/// The materials are shared by every spec that asks: their holders read the dataset's prompts
/// only. Whoever tokenizes (a worker's prompt writer) loads its own, as PromptMaterials says.
std::shared_ptr<PromptMaterials> sharedPromptMaterials(const PromptSpec& spec,
                                                       const std::string& path);

}  // namespace plumbline::workload
