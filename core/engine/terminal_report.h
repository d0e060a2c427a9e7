#pragma once
#include <string>
#include <vector>

#include "core/metrics/run_summary.h"

namespace plumbline::engine {

/// The end-of-run table: the verdict on the first line, then counts, rates and latencies.
std::string formatRunReport(const metrics::RunSummary& s, const std::vector<std::string>& notes);

}  // namespace plumbline::engine
