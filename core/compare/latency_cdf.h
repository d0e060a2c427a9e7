#pragma once
#include <cstddef>
#include <vector>

#include "core/metrics/latency_histogram.h"

namespace plumbline::compare {

struct CdfPoint {
  double valueMs = 0;
  double fraction = 0;  ///< share of values <= valueMs, in (0, 1]
  bool operator==(const CdfPoint&) const = default;
};

/// The histogram's CDF in at most maxPoints points (maxPoints >= 2), ascending in both value
/// and fraction, ending at exactly 1. Points are kept whenever the fraction has grown by
/// 2/maxPoints or the value by 2/maxPoints of its log range since the last one, so both the
/// bulk and the tail (p99.9, the max) keep their shape. Empty for an empty histogram.
std::vector<CdfPoint> latencyCdf(const metrics::LatencyHistogram& histogram,
                                 size_t maxPoints = 500);

}  // namespace plumbline::compare
