#pragma once
// The verdict's policy as a workload sets it.
#include "core/metrics/verdict.h"
#include "core/workload/workload_spec.h"

namespace plumbline::engine {

metrics::VerdictPolicy verdictPolicyOf(const workload::VerdictSpec& verdict);

}  // namespace plumbline::engine
