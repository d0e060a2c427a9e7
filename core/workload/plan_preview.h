#pragma once
#include <cstdint>
#include <optional>
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

/// The planned arrival instants seen as a process: how many per second and how bursty.
struct ArrivalStats {
  double meanRate = 0;  ///< sessions per second over the schedule
  double gapMeanS = 0;
  double gapCv = 0;     ///< stddev / mean of the gaps between consecutive arrivals (poisson: 1)
};

/// For arrival "trace": which part of which file is replayed, and how fast.
struct TracePreview {
  std::string file;
  std::string format;
  uint64_t rowsInFile = 0, rowsUsed = 0;
  uint64_t firstLine = 0, lastLine = 0;  ///< file lines of the first and last replayed row
  double traceSpanS = 0;    ///< first to last replayed row, trace seconds
  double timeScale = 1;
  double replaySpanS = 0;   ///< the same on the run's clock
  double traceRate = 0;     ///< rows per trace second over the window
  double scaledRate = 0;    ///< rows per second as replayed
  bool lengthsFromTrace = true;
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
  ArrivalStats arrivals;
  std::optional<TracePreview> trace;

  SessionEstimate session;  ///< expected per session and the derived request rate
  /// Share of planned input tokens that repeat the start of an earlier prompt (shared system
  /// prompts, resent conversations, Mooncake blocks seen before): see PrefixReuseCounter.
  double prefixReuseShare = 0;
};

/// Runs the planner over the whole schedule. Memory: two uint32 per session.
PlanPreview buildPreview(const WorkloadSpec& spec);

/// A readable multi-line summary for a terminal: name, target, arrival, stages, lengths, totals.
std::string formatPreview(const PlanPreview& preview, const WorkloadSpec& spec);

/// The same content as JSON (`plumbline plan --json`).
nlohmann::json previewJson(const PlanPreview& preview, const WorkloadSpec& spec);

}  // namespace plumbline::workload
