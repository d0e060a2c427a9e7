#pragma once
#include <cstdint>
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
SessionTokens sessionTokens(const SessionPlan& session);

/// Expected values per session over `samples` sessions drawn from the workload's seed, and
/// what they make of the load's mean session rate.
struct SessionEstimate {
  double requestsPerSession = 0;
  double inputTokensPerSession = 0;
  double outputTokensPerSession = 0;
  double sessionRate = 0;            ///< mean session arrivals/s over the schedule
  double requestRate = 0;            ///< sessionRate × requestsPerSession
  double inputTokensPerS = 0;
  double outputTokensPerS = 0;
};
SessionEstimate estimateSessions(const WorkloadSpec& spec, uint32_t samples = 10000);

}  // namespace plumbline::workload
