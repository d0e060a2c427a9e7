#pragma once
#include <cstdint>
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

}  // namespace plumbline::workload
