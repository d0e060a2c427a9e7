#include "core/engine/worker_config.h"

#include <stdexcept>

namespace plumbline::engine {

std::string endpointPath(workload::Api api) {
  return api == workload::Api::Chat ? "/v1/chat/completions" : "/v1/completions";
}

namespace {
nlohmann::json samplingJson(const workload::SamplingSpec& s) {
  nlohmann::json j = nlohmann::json::object();
  if (s.temperature) j["temperature"] = *s.temperature;
  if (s.topP) j["top_p"] = *s.topP;
  if (s.maxTokens) j["max_tokens"] = *s.maxTokens;
  if (s.ignoreEos) j["ignore_eos"] = *s.ignoreEos;
  if (s.seed) j["seed"] = *s.seed;
  j["extra"] = s.extra;
  return j;
}

workload::SamplingSpec samplingFromJson(const nlohmann::json& j) {
  workload::SamplingSpec s;
  if (j.contains("temperature")) s.temperature = j.at("temperature").get<double>();
  if (j.contains("top_p")) s.topP = j.at("top_p").get<double>();
  if (j.contains("max_tokens")) s.maxTokens = j.at("max_tokens").get<int64_t>();
  if (j.contains("ignore_eos")) s.ignoreEos = j.at("ignore_eos").get<bool>();
  if (j.contains("seed")) s.seed = j.at("seed").get<int64_t>();
  s.extra = j.value("extra", nlohmann::json::object());
  return s;
}
}  // namespace

nlohmann::json WorkerConfig::toJson() const {
  return {{"worker_id", workerId},
          {"t0_ns", t0Ns},
          {"window_ns", windowNs},
          {"schedule_end_ns", scheduleEndNs},
          {"endpoint_url", endpointUrl},
          {"api", api == workload::Api::Chat ? "chat" : "completions"},
          {"model", model},
          {"stream", stream},
          {"timeout_ns", timeoutNs},
          {"max_in_flight", maxInFlight},
          {"prompt_seed", promptSeed},
          {"sampling", samplingJson(sampling)},
          {"api_key", apiKey},
          {"prompt", prompt.toWorkerJson()}};
}

WorkerConfig WorkerConfig::fromJson(const nlohmann::json& j) {
  try {
    WorkerConfig c;
    c.workerId = j.at("worker_id").get<uint32_t>();
    c.t0Ns = j.at("t0_ns").get<int64_t>();
    c.windowNs = j.at("window_ns").get<int64_t>();
    c.scheduleEndNs = j.at("schedule_end_ns").get<int64_t>();
    c.endpointUrl = j.at("endpoint_url").get<std::string>();
    c.api = j.at("api").get<std::string>() == "chat" ? workload::Api::Chat : workload::Api::Completions;
    c.model = j.at("model").get<std::string>();
    c.stream = j.at("stream").get<bool>();
    c.timeoutNs = j.at("timeout_ns").get<int64_t>();
    c.maxInFlight = j.at("max_in_flight").get<int64_t>();
    c.promptSeed = j.at("prompt_seed").get<uint64_t>();
    c.sampling = samplingFromJson(j.at("sampling"));
    c.apiKey = j.at("api_key").get<std::string>();
    if (j.contains("prompt")) c.prompt = workload::PromptSpec::fromWorkerJson(j.at("prompt"));
    if (c.windowNs <= 0 || c.maxInFlight <= 0 || c.timeoutNs <= 0)
      throw std::invalid_argument("non-positive window, cap or timeout");
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("worker config: ") + e.what());
  }
}

}  // namespace plumbline::engine
