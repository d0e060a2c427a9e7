#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/workload/planner.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// What one planned session sends, if every reply is as long as asked: requests, and input
/// tokens with context growth (each request resends its conversation so far, and the shared
/// system prompt) and output tokens.
struct SessionTokens {
  uint64_t requests = 0;
  uint64_t inputTokens = 0;
  uint64_t outputTokens = 0;
};

/// Input tokens of each request of a session (prefix + conversation so far + new text).
std::vector<uint64_t> requestInputTokens(const SessionPlan& session);
/// `maxTokens` (requests.sampling.max_tokens) caps each request's output as it is asked for.
SessionTokens sessionTokens(const SessionPlan& session,
                            std::optional<int64_t> maxTokens = std::nullopt);

/// Averages over sessions 0, 1, 2... drawn exactly as the planner draws them (drawSession):
/// what `plumbline plan` and the designer's session picture both show, so they cannot differ.
/// Draws `samples` sessions, or fewer once kEstimateRequestBudget requests were drawn (big
/// trees), or as many as a replay has rows.
struct SessionAverages {
  uint32_t sessions = 0;          ///< sessions drawn
  double requests = 0;            ///< per session
  double inputTokens = 0;         ///< per session, context and shared prefix included
  double outputTokens = 0;
  uint32_t medianRequests = 1;
};
inline constexpr uint32_t kEstimateSamples = 10000;
inline constexpr uint64_t kEstimateRequestBudget = 400000;
SessionAverages averageSessions(const WorkloadSpec& spec, uint32_t samples = kEstimateSamples);

/// Expected values per session (averageSessions), and what they make of the load's mean
/// session rate (a replay: its rows per second as scaled).
struct SessionEstimate {
  double requestsPerSession = 0;
  double inputTokensPerSession = 0;
  double outputTokensPerSession = 0;
  double sessionRate = 0;            ///< mean session arrivals/s over the schedule
  double requestRate = 0;            ///< sessionRate × requestsPerSession
  double inputTokensPerS = 0;
  double outputTokensPerS = 0;
};
SessionEstimate estimateSessions(const WorkloadSpec& spec, uint32_t samples = kEstimateSamples);

}  // namespace plumbline::workload
