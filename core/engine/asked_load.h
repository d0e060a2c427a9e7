#pragma once
// What load the workload asked for, in its own terms, beside the report's "requested" (which is
// the schedule as drawn: a Poisson schedule asked for 20/s may draw 20.93/s).
#include <string>

#include "core/workload/workload_spec.h"

namespace plumbline::engine {

/// "poisson arrivals at 20.00 requests/s on average over 6.00 s (1 stage)", "… sessions/s …
/// (session shape multi_turn: several requests each)", "the trace's own arrival instants
/// (FILE, gaps × 0.5)".
std::string describeAskedLoad(const workload::WorkloadSpec& spec);

}  // namespace plumbline::engine
