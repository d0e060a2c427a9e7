#pragma once
// The verdict's policy as a workload sets it.
#include "core/metrics/verdict.h"
#include "core/workload/workload_spec.h"

namespace plumbline::engine {

/// The hold tolerance of a workload that sets neither it nor a longer send-lag tolerance.
inline constexpr double kDefaultHoldToleranceMs = 10.0;

metrics::VerdictPolicy verdictPolicyOf(const workload::VerdictSpec& verdict);

}  // namespace plumbline::engine
