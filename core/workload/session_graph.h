#pragma once
#include "core/util/rng.h"
#include "core/workload/planner.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// Fills session.requests (and its shared-prefix group) for the workload's session shape,
/// deterministically from (seed, session id): turns, steps, chunks, lengths and delays are
/// drawn here, at plan time. Leaves requests empty for a plain single request.
/// The first request reuses session.inputTokens / outputTokens.
void planSessionRequests(const WorkloadSpec& spec, SessionPlan& session);

/// One draw from a seconds distribution, clamped, in nanoseconds.
int64_t sampleDelayNs(const SecondsDist& dist, util::Rng& rng);

}  // namespace plumbline::workload
