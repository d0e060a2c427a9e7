#pragma once
#include <cstdint>
#include <vector>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// A histogram of durations drawn with core's own delay sampler (sampleDelayNs: what a run
/// waits between turns or for a tool), in seconds.
struct SecondsHistogram {
  struct Bin {
    double low = 0, high = 0;  ///< [low, high) in seconds
    uint64_t count = 0;
  };
  std::vector<Bin> bins;
  uint64_t draws = 0;
  /// True when the bins stop at p99.9 and the last one also holds every longer draw.
  bool tailFolded = false;
  double min = 0, max = 0, p50 = 0, p90 = 0, p99 = 0, mean = 0;
};

/// Draws `draws` delays from `dist` (seeded, deterministic) and bins them into at most
/// `binCount` equal-width bins spanning [min, p99.9] of the draws (one bin when all are equal).
SecondsHistogram secondsHistogram(const SecondsDist& dist, uint64_t seed, uint32_t draws = 20000,
                                  uint32_t binCount = 40);

}  // namespace plumbline::workload
