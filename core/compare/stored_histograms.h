#pragma once
// A stored run's full-resolution latency histograms, decoded for charts.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/metrics/latency_histogram.h"
#include "core/store/run_reader.h"

namespace plumbline::compare {

/// One window's p50 and p99 of a latency, in milliseconds.
struct WindowPercentiles {
  double p50Ms = 0;
  double p99Ms = 0;
  bool operator==(const WindowPercentiles&) const = default;
};

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

/// The time to first answer token of each window that has one, by window index, when some
/// window's differs from its time to first token; empty otherwise (nothing to draw apart).
std::map<int64_t, WindowPercentiles> answerPercentilesByWindow(const store::RunReader& reader,
                                                               int64_t runId);

}  // namespace plumbline::compare
