#include "core/engine/verdict_policy.h"

#include <algorithm>

namespace plumbline::engine {

metrics::VerdictPolicy verdictPolicyOf(const workload::VerdictSpec& verdict) {
  metrics::VerdictPolicy policy;
  policy.minSentFraction = verdict.minSentFraction;
  policy.sendLagToleranceNs = static_cast<int64_t>(verdict.sendLagToleranceMs * 1e6);
  const double holdMs = verdict.holdToleranceMs.value_or(
      std::max(kDefaultHoldToleranceMs, verdict.sendLagToleranceMs));
  policy.holdToleranceNs = static_cast<int64_t>(holdMs * 1e6);
  return policy;
}

}  // namespace plumbline::engine
