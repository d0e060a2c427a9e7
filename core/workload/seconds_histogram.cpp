#include "core/workload/seconds_histogram.h"

#include <algorithm>
#include <cmath>

#include "core/util/rng.h"
#include "core/workload/nearest_rank.h"
#include "core/workload/session_graph.h"

namespace plumbline::workload {

SecondsHistogram secondsHistogram(const SecondsDist& dist, uint64_t seed, uint32_t draws,
                                  uint32_t binCount) {
  SecondsHistogram out;
  if (draws == 0 || binCount == 0) return out;
  util::Rng rng(seed);
  std::vector<double> values(draws);
  double sum = 0;
  for (auto& v : values) {
    v = static_cast<double>(sampleDelayNs(dist, rng)) / 1e9;
    sum += v;
  }
  std::sort(values.begin(), values.end());
  out.draws = draws;
  out.min = values.front();
  out.max = values.back();
  out.p50 = nearestRank(values, 50);
  out.p90 = nearestRank(values, 90);
  out.p99 = nearestRank(values, 99);
  out.mean = sum / draws;

  const double upper = nearestRank(values, 99.9);
  out.tailFolded = upper < out.max;
  const double span = upper - out.min;
  const uint32_t bins = span > 0 ? binCount : 1;
  // One bin of width 1 ns when every draw is equal (a fixed delay), so it still has a width.
  const double width = span > 0 ? span / bins : 1e-9;
  out.bins.resize(bins);
  for (uint32_t i = 0; i < bins; ++i) {
    out.bins[i].low = out.min + i * width;
    out.bins[i].high = out.min + (i + 1) * width;
  }
  for (double v : values) {
    const double index = std::floor((v - out.min) / width);
    out.bins[std::min<size_t>(static_cast<size_t>(std::max(0.0, index)), bins - 1)].count++;
  }
  return out;
}

}  // namespace plumbline::workload
