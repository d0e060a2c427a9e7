#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/workload_spec.h"

namespace plumbline::engine {

/// Everything a worker needs to send requests; travels in the Config frame. The API key is
/// here (over the private socket pair only) so that it never appears on a command line.
struct WorkerConfig {
  uint32_t workerId = 0;
  int64_t t0Ns = 0;            ///< the run's t0 on CLOCK_MONOTONIC (system-wide)
  int64_t windowNs = 1'000'000'000;
  /// End of the schedule: sessions still unsent this long after it are not sent (the harness
  /// fell behind; sending them late would inflate the achieved rate).
  int64_t scheduleEndNs = INT64_MAX;
  std::string endpointUrl;     ///< full URL, e.g. http://127.0.0.1:8000/v1/chat/completions
  workload::Api api = workload::Api::Chat;
  std::string model;
  bool stream = true;
  /// Per request, as the workload set it (QA 24: 0.2405 s ran and was said as 240 ms).
  int64_t timeoutNs = 60'000'000'000;
  int64_t maxInFlight = 1000;  ///< this worker's share of max_in_flight
  uint64_t promptSeed = 1;
  workload::PromptSpec prompt;  ///< resolved paths; the worker loads the files itself
  workload::SamplingSpec sampling;
  std::string apiKey;          ///< empty = no Authorization header

  nlohmann::json toJson() const;
  /// Throws std::invalid_argument naming the bad field.
  static WorkerConfig fromJson(const nlohmann::json& j);
};

/// The request path of an OpenAI-compatible endpoint for an API style.
std::string endpointPath(workload::Api api);

}  // namespace plumbline::engine
