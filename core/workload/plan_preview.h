#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/workload/session_estimate.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// Exact order statistics of the token lengths a plan drew.
struct LengthSummary {
  uint32_t min = 0, max = 0;
  uint32_t p1 = 0, p10 = 0, p50 = 0, p90 = 0, p99 = 0;
  double mean = 0;
  uint64_t total = 0;
};

/// One stage of the profile as planned: what the rates promise and what was drawn.
struct StagePreview {
  uint32_t index = 0;
  double startS = 0, endS = 0;
  double startRate = 0, endRate = 0;
  double expectedSessions = 0;     ///< integral of the rate
  uint64_t plannedSessions = 0;    ///< sessions the planner actually placed in the stage
  double expectedRequestRate = 0;  ///< mean requests per second over the stage
};

/// What a workload will send, computed by running the planner over the whole schedule
/// (`plumbline plan`). Sends nothing.
struct PlanPreview {
  uint64_t sessions = 0;
  uint64_t requests = 0;  ///< equals sessions for shape "single"; lengths below are per request
  double durationS = 0;
  std::vector<StagePreview> stages;
  LengthSummary input, output;
  uint64_t totalInputTokens = 0, totalOutputTokens = 0;
  double inputTokensPerS = 0, outputTokensPerS = 0;  ///< planned totals over the duration
  SessionEstimate session;  ///< expected per session and the derived request rate
};

/// Runs the planner over the whole schedule. Memory: two uint32 per session.
PlanPreview buildPreview(const WorkloadSpec& spec);

/// A readable multi-line summary for a terminal: name, target, arrival, stages, lengths, totals.
std::string formatPreview(const PlanPreview& preview, const WorkloadSpec& spec);

/// The same content as JSON (`plumbline plan --json`).
nlohmann::json previewJson(const PlanPreview& preview, const WorkloadSpec& spec);

}  // namespace plumbline::workload
