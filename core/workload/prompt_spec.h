#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace plumbline::workload {

struct PromptMaterials;

/// `requests.prompt` with source "sharegpt": which conversations become prompts, and how long
/// they may be. Lengths are counted with the prompt tokenizer when one is set, else with the
/// approximation (one whitespace-separated word per token).
struct ShareGptSpec {
  std::string file;          ///< as written in the workload (relative to it)
  std::string resolvedFile;  ///< the path that is opened
  int64_t minInputTokens = 1;
  int64_t maxInputTokens = 1'000'000;
  int64_t maxOutputTokens = 1'000'000;
  /// The one policy: "keep_start" cuts an input longer than maxInputTokens to its first
  /// maxInputTokens tokens. Inputs shorter than minInputTokens are skipped, never padded.
  std::string truncation = "keep_start";
};

/// `requests.prompt`: where prompt text comes from and what its token counts are measured with.
struct PromptSpec {
  std::string source = "synthetic";  ///< "synthetic" | "sharegpt"
  std::string tokenizer;             ///< as written; empty = the word approximation
  std::string resolvedTokenizer;     ///< the path that is opened
  std::optional<ShareGptSpec> sharegpt;
  /// Loaded by loadPromptMaterials (workload_loader does it for files); null until then.
  std::shared_ptr<PromptMaterials> materials;

  /// What prompt token counts mean, for every result: "tokenizer: qwen3/tokenizer.json" or
  /// "approximate: 1 word per token".
  std::string basis() const;
  /// The resolved settings a worker needs to rebuild the same prompts (no loaded data).
  nlohmann::json toWorkerJson() const;
  /// Throws std::invalid_argument naming a bad field.
  static PromptSpec fromWorkerJson(const nlohmann::json& j);
};

/// The basis string of runs without a tokenizer.
inline constexpr const char* kApproximateBasis = "approximate: 1 word per token";

}  // namespace plumbline::workload
