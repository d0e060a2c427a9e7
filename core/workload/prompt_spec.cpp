#include "core/workload/prompt_spec.h"

#include <stdexcept>

namespace plumbline::workload {

std::string PromptSpec::basis() const {
  return tokenizer.empty() ? std::string(kApproximateBasis) : "tokenizer: " + tokenizer;
}

nlohmann::json PromptSpec::toWorkerJson() const {
  nlohmann::json j = {{"source", source}, {"tokenizer", tokenizer}, {"resolved_tokenizer", resolvedTokenizer}};
  if (sharegpt) {
    j["sharegpt"] = {{"file", sharegpt->file},
                     {"resolved_file", sharegpt->resolvedFile},
                     {"min_input_tokens", sharegpt->minInputTokens},
                     {"max_input_tokens", sharegpt->maxInputTokens},
                     {"max_output_tokens", sharegpt->maxOutputTokens},
                     {"truncation", sharegpt->truncation}};
  }
  return j;
}

PromptSpec PromptSpec::fromWorkerJson(const nlohmann::json& j) {
  try {
    PromptSpec p;
    p.source = j.at("source").get<std::string>();
    p.tokenizer = j.at("tokenizer").get<std::string>();
    p.resolvedTokenizer = j.at("resolved_tokenizer").get<std::string>();
    if (j.contains("sharegpt")) {
      const auto& s = j.at("sharegpt");
      ShareGptSpec g;
      g.file = s.at("file").get<std::string>();
      g.resolvedFile = s.at("resolved_file").get<std::string>();
      g.minInputTokens = s.at("min_input_tokens").get<int64_t>();
      g.maxInputTokens = s.at("max_input_tokens").get<int64_t>();
      g.maxOutputTokens = s.at("max_output_tokens").get<int64_t>();
      g.truncation = s.at("truncation").get<std::string>();
      p.sharegpt = g;
    }
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("prompt: ") + e.what());
  }
}

}  // namespace plumbline::workload
