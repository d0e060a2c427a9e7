#pragma once
#include "core/metrics/run_summary.h"
#include "core/workload/workload_spec.h"

namespace plumbline::engine {

/// Says in the summary what the client's token counts are, so no reader mistakes them:
/// input is the planned (or dataset) prompt length under the prompt tokenizer or the word
/// approximation; output is the prompt tokenizer's count of the reply text received when the
/// workload names a tokenizer, else content chunks (streaming) or nothing.
void describeTokenCounts(const workload::WorkloadSpec& spec, metrics::RunSummary& summary);

}  // namespace plumbline::engine
