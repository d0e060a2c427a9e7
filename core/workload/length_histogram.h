#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// A histogram of token lengths drawn with core's own sampler (what a run would draw).
struct LengthHistogram {
  struct Bin {
    double low = 0, high = 0;  ///< [low, high) in tokens
    uint64_t count = 0;
  };
  std::vector<Bin> bins;
  uint64_t draws = 0;
  /// True when the bins stop at p99.9 and the last one also holds every longer draw, so a
  /// long clamp does not squeeze the body of the distribution into a few bins.
  bool tailFolded = false;
  uint32_t min = 0, max = 0, p50 = 0, p90 = 0, p99 = 0;
  double mean = 0;
};

/// Draws `draws` lengths from `dist` (seeded, deterministic) and bins them into at most
/// `binCount` equal-width bins spanning [min, p99.9] of the draws (see tailFolded).
LengthHistogram lengthHistogram(const LengthDist& dist, uint64_t seed, uint32_t draws = 20000,
                                uint32_t binCount = 40);

/// The same of lengths already known (`draws` is then their count). Takes them by value: it
/// sorts them.
LengthHistogram histogramOfLengths(std::vector<uint32_t> values, uint32_t binCount = 40);

/// A replay's input and output lengths when they are the trace's (load.trace.lengths "trace").
struct TraceLengthHistograms {
  LengthHistogram input, output;  ///< `draws` = the replayed rows
};

/// Of every row the replay sends (the workload's window of the trace), as the planner draws
/// each session (a 0 goes out as 1). Nothing when the lengths are not the trace's.
std::optional<TraceLengthHistograms> traceLengthHistograms(const WorkloadSpec& spec,
                                                           uint32_t binCount = 40);

}  // namespace plumbline::workload
