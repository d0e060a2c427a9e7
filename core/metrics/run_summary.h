#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/verdict.h"
#include "core/metrics/window_stats.h"

namespace plumbline::metrics {

struct Percentiles {
  double p50 = 0, p90 = 0, p99 = 0, max = 0;  ///< milliseconds
  static Percentiles fromHistogram(const LatencyHistogram& h);
};

/// The outcome of a run: what --summary-json writes and the runs table stores.
struct RunSummary {
  int64_t runId = 0;
  Verdict verdict;
  uint64_t planned = 0;
  uint64_t sent = 0;
  uint64_t completed = 0;
  uint64_t notSent = 0;
  std::map<std::string, uint64_t> errors;  ///< by class name; zero classes omitted
  double durationS = 0;
  double requestedRps = 0;
  double achievedRps = 0;
  Percentiles sendLagMs, ttftMs, itlMs, e2eMs, ttftFromPlannedMs, e2eFromPlannedMs;
  double inputTokensPerS = 0;
  double outputTokensPerS = 0;
  std::string tokenCountSource;  ///< "server" (usage) or "client"
  bool complete = true;

  nlohmann::json toJson() const;
};

}  // namespace plumbline::metrics
