#include "core/engine/verdict_policy.h"

namespace plumbline::engine {

metrics::VerdictPolicy verdictPolicyOf(const workload::VerdictSpec& verdict) {
  metrics::VerdictPolicy policy;
  policy.minSentFraction = verdict.minSentFraction;
  policy.sendLagToleranceNs = static_cast<int64_t>(verdict.sendLagToleranceMs * 1e6);
  policy.holdToleranceNs = static_cast<int64_t>(verdict.holdToleranceMs * 1e6);
  return policy;
}

}  // namespace plumbline::engine
