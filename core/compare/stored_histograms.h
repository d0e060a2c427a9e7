#pragma once
// A stored run's full-resolution latency histograms, decoded for charts.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/latency_histogram.h"
#include "core/store/run_reader.h"

namespace plumbline::compare {

/// The run's histogram of `metric` (windowIdx -1: the whole run); none when the run stored none
/// or it is damaged (a chart loses that curve, not the view). Throws StoreError when the
/// database cannot be read.
std::optional<metrics::LatencyHistogram> storedHistogram(const store::RunReader& reader,
                                                         int64_t runId, const std::string& metric,
                                                         int64_t windowIdx = -1);

/// Whether a time to first answer token histogram differs from the time to first token one:
/// a model that does not think has the same histogram for both; none (null) is no answer.
bool answerDiffers(const metrics::LatencyHistogram* answer, const metrics::LatencyHistogram* first);

/// Whether the run's whole-run time to first answer token ("ttfa") differs from its time to
/// first token: a reasoning model thought (or called a tool) before answering. A model that does
/// not think has the same histogram for both, and a run stored before ttfa none.
bool answerDiffersFromFirstToken(const store::RunReader& reader, int64_t runId);

/// The run's windows, each percentile that rows stored before schema v11 lack (TTFA, TTFT and
/// e2e from planned) or before v12 (TPOT) taken from the window's stored histogram of it; one
/// the window had no sample of, or no histogram of (a run stored before tpot), stays none.
/// Throws StoreError when the database cannot be read.
std::vector<store::WindowRow> windowsWithStoredPercentiles(const store::RunReader& reader,
                                                           int64_t runId);

}  // namespace plumbline::compare
