#pragma once
// How far a percentile taken from n samples can be from the true one: its distribution-free
// confidence interval, and the test that tells a change between two runs from sampling noise.
#include <cstdint>
#include <optional>

#include "core/metrics/latency_histogram.h"

namespace plumbline::compare {

/// The 95% confidence interval of a percentile, in the figure's unit. An end is unknown when the
/// samples are too few to bound the percentile on that side: a p99 of 50 samples is their
/// slowest, and the true p99 may lie anywhere above it.
struct PercentileInterval {
  std::optional<double> low;
  std::optional<double> high;
  uint64_t samples = 0;  ///< the independent samples the interval counts
  uint64_t values = 0;   ///< the values the histogram holds (more, where they cluster)

  bool bounded() const { return low.has_value() && high.has_value(); }
};

/// The ranks (1-based, of the samples sorted) bracketing quantile q of n samples at 95%: the
/// binomial's normal approximation, n·q ± 1.96·√(n·q·(1−q)), widened to whole ranks (for n = 50
/// and the median, ranks 18 and 33, as the exact binomial tables give). A rank below 1 or above
/// n means that side is unbounded.
struct QuantileRanks {
  int64_t low = 0;
  int64_t high = 0;
};
QuantileRanks quantileRanks(uint64_t n, double q);

/// The fewest samples whose quantile q is bounded on both sides (p50: 8, p90: 53, p99: 563).
uint64_t samplesToBound(double q);

/// The interval of quantile q of what `h` holds, in milliseconds; nullopt when it is empty.
/// `independent` > 0: the values come in that many clusters that vary together (the gaps of one
/// stream), and the interval's ranks are those of that many samples, as shares of the values.
std::optional<PercentileInterval> percentileInterval(const metrics::LatencyHistogram& h, double q,
                                                     uint64_t independent = 0);

/// Whether `value` differs from `baseline` by more than sampling explains: by more than the 95%
/// margins of both figures on the sides facing each other, combined as independent errors
/// (√(a² + b²)). nullopt when either interval is unbounded on a side that matters.
std::optional<bool> beyondNoise(double baseline, const PercentileInterval& baselineInterval,
                                double value, const PercentileInterval& valueInterval);

/// The same for two means over n₀ and n₁ requests whose spread is not known: taken to vary as
/// much as their mean (CV 1), a change within 1.96·√(1/n₀ + 1/n₁) of the baseline is noise.
/// nullopt when either has no requests.
std::optional<bool> meanBeyondNoise(double baseline, uint64_t n0, double value, uint64_t n1);

/// The same for two shares of hits in trials (errors of sent): a two-proportion z-test at 95%
/// with the pooled share. nullopt when either has no trials.
std::optional<bool> shareBeyondNoise(uint64_t hits0, uint64_t trials0, uint64_t hits1,
                                     uint64_t trials1);

}  // namespace plumbline::compare
