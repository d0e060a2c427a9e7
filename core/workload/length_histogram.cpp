#include "core/workload/length_histogram.h"

#include <algorithm>
#include <cmath>

#include "core/util/rng.h"
#include "core/workload/nearest_rank.h"
#include "core/workload/planner.h"
#include "core/workload/trace_replay.h"

namespace plumbline::workload {

LengthHistogram lengthHistogram(const LengthDist& dist, uint64_t seed, uint32_t draws,
                                uint32_t binCount) {
  util::Rng rng(seed);
  std::vector<uint32_t> values(draws);
  for (auto& v : values) v = sampleLength(dist, rng);
  return histogramOfLengths(std::move(values), binCount);
}

LengthHistogram histogramOfLengths(std::vector<uint32_t> values, uint32_t binCount) {
  LengthHistogram out;
  if (values.empty() || binCount == 0) return out;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (uint32_t v : values) sum += v;
  out.draws = values.size();
  out.min = values.front();
  out.max = values.back();
  out.p50 = nearestRank(values, 50);
  out.p90 = nearestRank(values, 90);
  out.p99 = nearestRank(values, 99);
  out.mean = sum / static_cast<double>(values.size());

  // Bins of the same whole number of tokens each: lengths are integers, and bins of 2 and 3
  // values side by side drew a flat distribution as a comb (QA 23b: uniform 32-128 in 40 bins
  // alternated by up to 50 %). The last bin is as wide as the others, past p99.9 if need be.
  const uint32_t upper = nearestRank(values, 99.9);
  const uint64_t span = static_cast<uint64_t>(upper - out.min) + 1;
  const uint64_t width = (span + binCount - 1) / binCount;
  const auto bins = static_cast<uint32_t>((span + width - 1) / width);
  out.tailFolded = static_cast<uint64_t>(out.min) + bins * width - 1 < out.max;
  out.bins.resize(bins);
  for (uint32_t i = 0; i < bins; ++i) {
    out.bins[i].low = static_cast<double>(out.min + i * width);
    out.bins[i].high = static_cast<double>(out.min + (i + 1) * width);
  }
  for (uint32_t v : values) {
    auto index = static_cast<size_t>((v - out.min) / width);
    out.bins[std::min<size_t>(index, bins - 1)].count++;
  }
  return out;
}

std::optional<TraceLengthHistograms> traceLengthHistograms(const WorkloadSpec& spec,
                                                           uint32_t binCount) {
  if (!spec.load.trace || !spec.load.trace->lengthsFromTrace || !spec.load.traceSchedule)
    return std::nullopt;
  const size_t rows = spec.load.traceSchedule->rows.size();
  std::vector<uint32_t> inputs(rows), outputs(rows);
  for (size_t id = 0; id < rows; ++id) {
    const SessionPlan session = drawSession(spec, id);  // the run's lengths, 0 raised to 1
    inputs[id] = session.inputTokens;
    outputs[id] = session.outputTokens;
  }
  return TraceLengthHistograms{histogramOfLengths(std::move(inputs), binCount),
                               histogramOfLengths(std::move(outputs), binCount)};
}

}  // namespace plumbline::workload
