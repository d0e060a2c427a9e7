#include "core/compare/percentile_interval.h"

#include <algorithm>
#include <cmath>

namespace plumbline::compare {

namespace {

constexpr double kZ95 = 1.959963984540054;  ///< two-sided 95% of the normal distribution

double msOf(int64_t ns) { return static_cast<double>(ns) / 1e6; }

/// The value at the k-th of n ranks (1-based), as the histogram reports it.
double rankValueMs(const metrics::LatencyHistogram& h, int64_t k, uint64_t n) {
  // percentile() takes the ceil(q·count)-th value: (k − ½)/n lands on k whatever the rounding.
  return msOf(h.percentile((static_cast<double>(k) - 0.5) / static_cast<double>(n)));
}

}  // namespace

QuantileRanks quantileRanks(uint64_t n, double q) {
  const double nd = static_cast<double>(n), centre = nd * q;
  const double spread = kZ95 * std::sqrt(centre * (1 - q));
  return {static_cast<int64_t>(std::floor(centre - spread)),
          static_cast<int64_t>(std::ceil(centre + spread)) + 1};
}

uint64_t samplesToBound(double q) {
  for (uint64_t n = 1;; ++n) {
    const QuantileRanks r = quantileRanks(n, q);
    if (r.low >= 1 && r.high <= static_cast<int64_t>(n)) return n;
  }
}

std::optional<PercentileInterval> percentileInterval(const metrics::LatencyHistogram& h, double q,
                                                     uint64_t independent) {
  if (h.empty()) return std::nullopt;
  PercentileInterval out;
  out.values = h.count();
  out.samples = independent > 0 ? std::min(independent, h.count()) : h.count();
  const QuantileRanks r = quantileRanks(out.samples, q);
  if (r.low >= 1) out.low = rankValueMs(h, r.low, out.samples);
  if (r.high <= static_cast<int64_t>(out.samples)) out.high = rankValueMs(h, r.high, out.samples);
  return out;
}

std::optional<bool> beyondNoise(double baseline, const PercentileInterval& baselineInterval,
                                double value, const PercentileInterval& valueInterval) {
  if (value == baseline) return false;
  const bool up = value > baseline;
  // Rising: how far the baseline may be above itself, and the value below itself.
  const std::optional<double> baselineEnd = up ? baselineInterval.high : baselineInterval.low;
  const std::optional<double> valueEnd = up ? valueInterval.low : valueInterval.high;
  if (!baselineEnd || !valueEnd) return std::nullopt;
  const double a = std::fabs(*baselineEnd - baseline), b = std::fabs(value - *valueEnd);
  return std::fabs(value - baseline) > std::sqrt(a * a + b * b);
}

std::optional<bool> meanBeyondNoise(double baseline, uint64_t n0, double value, uint64_t n1) {
  if (n0 == 0 || n1 == 0) return std::nullopt;
  const double margin = kZ95 * std::sqrt(1 / static_cast<double>(n0) + 1 / static_cast<double>(n1));
  return std::fabs(value - baseline) > margin * std::fabs(baseline);
}

std::optional<bool> shareBeyondNoise(uint64_t hits0, uint64_t trials0, uint64_t hits1,
                                     uint64_t trials1) {
  if (trials0 == 0 || trials1 == 0) return std::nullopt;
  const double n0 = static_cast<double>(trials0), n1 = static_cast<double>(trials1);
  const double p0 = static_cast<double>(hits0) / n0, p1 = static_cast<double>(hits1) / n1;
  const double pooled = static_cast<double>(hits0 + hits1) / (n0 + n1);
  const double se = std::sqrt(pooled * (1 - pooled) * (1 / n0 + 1 / n1));
  if (se == 0) return p0 != p1;
  return std::fabs(p1 - p0) > kZ95 * se;
}

}  // namespace plumbline::compare
