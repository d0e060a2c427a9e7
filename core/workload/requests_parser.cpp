#include "core/workload/requests_parser.h"

#include <array>
#include <string_view>

#include "core/workload/json_fields.h"
#include "core/workload/length_dist_parser.h"
#include "core/workload/prompt_parser.h"
#include "core/workload/session_parser.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

/// Body fields the engine writes itself; letting `extra` set them would silently change a run.
constexpr std::array<std::string_view, 10> kReservedBodyFields = {
    "model",      "messages",    "prompt", "stream", "stream_options",
    "max_tokens", "temperature", "top_p",  "seed",   "ignore_eos"};

}  // namespace

SamplingSpec parseSampling(const nlohmann::json& value, const std::string& path) {
  JsonFields fields(value, path,
                    {"temperature", "top_p", "max_tokens", "ignore_eos", "seed", "extra"});
  SamplingSpec sampling;
  sampling.temperature = fields.number("temperature");
  if (sampling.temperature) {
    checkNonNegative(*sampling.temperature, fields.childPath("temperature"));
    checkAtMost(*sampling.temperature, 2, fields.childPath("temperature"));
  }
  sampling.topP = fields.number("top_p");
  if (sampling.topP) {
    checkPositive(*sampling.topP, fields.childPath("top_p"));
    checkAtMost(*sampling.topP, 1, fields.childPath("top_p"));
  }
  sampling.maxTokens = fields.integer("max_tokens");
  if (sampling.maxTokens)
    checkAtLeast(static_cast<double>(*sampling.maxTokens), 1, fields.childPath("max_tokens"));
  sampling.ignoreEos = fields.boolean("ignore_eos");
  sampling.seed = fields.integer("seed");
  if (const auto* extra = fields.find("extra")) {
    const std::string extraPath = fields.childPath("extra");
    requireObject(*extra, extraPath);
    for (const auto& item : extra->items()) {
      for (std::string_view reserved : kReservedBodyFields) {
        if (item.key() == reserved)
          throw WorkloadError(extraPath + "." + item.key(),
                              "'" + item.key() + "' is set by Plumbline; it cannot be in extra");
      }
    }
    sampling.extra = *extra;
  }
  return sampling;
}

RequestsSpec parseRequests(const nlohmann::json& value, const std::string& path,
                           const std::string& baseDir, bool lengthsFromTrace) {
  JsonFields fields(value, path, {"input_tokens", "output_tokens", "prompt", "sampling"});
  RequestsSpec requests;
  if (const auto* prompt = fields.find("prompt")) {
    // shared_prefix is ours (sessions); the rest of the prompt object is the prompt parser's.
    nlohmann::json rest = *prompt;
    if (rest.is_object() && rest.contains("shared_prefix")) {
      requests.sharedPrefix = parseSharedPrefix(rest["shared_prefix"], fields.childPath("prompt") + ".shared_prefix");
      rest.erase("shared_prefix");
    }
    requests.prompt = parsePrompt(rest, fields.childPath("prompt"), baseDir);
  }
  if (lengthsFromTrace) {
    // Nothing would be drawn from them: a distribution here would only mislead the reader.
    for (const char* key : {"input_tokens", "output_tokens"}) {
      if (fields.has(key))
        throw WorkloadError(fields.childPath(key),
                            "not used when load.trace.lengths is \"trace\" (remove it, or set "
                            "lengths to \"workload\" to draw lengths from it)");
    }
  } else if (requests.prompt.sharegpt) {
    // The dataset's own turns give each request its lengths; a distribution would be ignored.
    for (const char* key : {"input_tokens", "output_tokens"}) {
      if (fields.has(key))
        throw WorkloadError(fields.childPath(key),
                            "not used with prompt source 'sharegpt' (lengths come from the dataset; "
                            "bound them with prompt.min_input_tokens/max_input_tokens/max_output_tokens)");
    }
    requests.inputTokens.source = requests.outputTokens.source = {{"dist", "sharegpt"}};
  } else {
    requests.inputTokens =
        parseLengthDist(fields.require("input_tokens"), fields.childPath("input_tokens"));
    requests.outputTokens =
        parseLengthDist(fields.require("output_tokens"), fields.childPath("output_tokens"));
  }
  if (const auto* sampling = fields.find("sampling"))
    requests.sampling = parseSampling(*sampling, fields.childPath("sampling"));
  return requests;
}

}  // namespace plumbline::workload
