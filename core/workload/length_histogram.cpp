#include "core/workload/length_histogram.h"

#include <algorithm>
#include <cmath>

#include "core/util/rng.h"
#include "core/workload/nearest_rank.h"
#include "core/workload/planner.h"

namespace plumbline::workload {
LengthHistogram lengthHistogram(const LengthDist& dist, uint64_t seed, uint32_t draws,
                                uint32_t binCount) {
  LengthHistogram out;
  if (draws == 0 || binCount == 0) return out;
  util::Rng rng(seed);
  std::vector<uint32_t> values(draws);
  double sum = 0;
  for (auto& v : values) {
    v = sampleLength(dist, rng);
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

  // Whole-token bins: never narrower than one token, so a narrow range is not split into
  // bins that can hold no value.
  const uint32_t upper = nearestRank(values, 99.9);
  out.tailFolded = upper < out.max;
  const double span = static_cast<double>(upper - out.min) + 1.0;
  const uint32_t bins = static_cast<uint32_t>(std::min<double>(binCount, span));
  const double width = span / bins;
  out.bins.resize(bins);
  for (uint32_t i = 0; i < bins; ++i) {
    out.bins[i].low = out.min + i * width;
    out.bins[i].high = out.min + (i + 1) * width;
  }
  for (uint32_t v : values) {
    auto index = static_cast<size_t>((v - out.min) / width);
    out.bins[std::min<size_t>(index, bins - 1)].count++;
  }
  return out;
}

}  // namespace plumbline::workload
