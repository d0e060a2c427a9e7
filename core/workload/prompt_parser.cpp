#include "core/workload/prompt_parser.h"

#include "core/workload/json_fields.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

std::string requirePath(const JsonFields& fields, const char* key) {
  const std::string value = fields.requireString(key);
  if (value.empty()) throw WorkloadError(fields.childPath(key), "must not be empty");
  return value;
}

int64_t tokenBound(const JsonFields& fields, const char* key, int64_t fallback) {
  const auto value = fields.integer(key);
  if (!value) return fallback;
  checkAtLeast(static_cast<double>(*value), 1, fields.childPath(key));
  return *value;
}

ShareGptSpec parseShareGpt(const JsonFields& fields, const std::string& baseDir) {
  ShareGptSpec s;
  s.file = requirePath(fields, "file");
  s.resolvedFile = resolveRelative(s.file, baseDir);
  s.minInputTokens = tokenBound(fields, "min_input_tokens", s.minInputTokens);
  s.maxInputTokens = tokenBound(fields, "max_input_tokens", s.maxInputTokens);
  s.maxOutputTokens = tokenBound(fields, "max_output_tokens", s.maxOutputTokens);
  if (s.minInputTokens > s.maxInputTokens)
    throw WorkloadError(fields.childPath("min_input_tokens"),
                        "must be <= max_input_tokens (" + std::to_string(s.maxInputTokens) + "), got " +
                            std::to_string(s.minInputTokens));
  if (auto truncation = fields.string("truncation")) {
    if (*truncation != "keep_start")
      throw WorkloadError(fields.childPath("truncation"),
                          "unknown policy '" + *truncation + "' (the one policy is 'keep_start': inputs "
                          "longer than max_input_tokens keep their first max_input_tokens tokens)");
    s.truncation = *truncation;
  }
  return s;
}

}  // namespace

std::string resolveRelative(const std::string& file, const std::string& baseDir) {
  if (file.empty() || file.front() == '/' || baseDir.empty()) return file;
  return baseDir + "/" + file;
}

PromptSpec parsePrompt(const nlohmann::json& value, const std::string& path, const std::string& baseDir) {
  requireObject(value, path);
  const auto source = value.find("source");
  const bool sharegpt = source != value.end() && source->is_string() && source->get<std::string>() == "sharegpt";
  JsonFields fields = sharegpt ? JsonFields(value, path,
                                            {"source", "tokenizer", "file", "min_input_tokens",
                                             "max_input_tokens", "max_output_tokens", "truncation"})
                               : JsonFields(value, path, {"source", "tokenizer"});
  PromptSpec prompt;
  prompt.source = fields.requireString("source");
  if (prompt.source != "synthetic" && prompt.source != "sharegpt") {
    if (prompt.source == "trace" || prompt.source == "dataset")
      throw WorkloadError(fields.childPath("source"),
                          "prompt source '" + prompt.source + "' is not supported yet ('synthetic' or 'sharegpt')");
    throw WorkloadError(fields.childPath("source"),
                        "unknown prompt source '" + prompt.source + "' ('synthetic' or 'sharegpt')");
  }
  if (fields.has("tokenizer")) {
    prompt.tokenizer = requirePath(fields, "tokenizer");
    prompt.resolvedTokenizer = resolveRelative(prompt.tokenizer, baseDir);
  }
  if (sharegpt) prompt.sharegpt = parseShareGpt(fields, baseDir);
  return prompt;
}

}  // namespace plumbline::workload
