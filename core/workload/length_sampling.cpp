#include "core/workload/length_sampling.h"

#include <algorithm>
#include <cmath>

#include "core/workload/planner.h"

namespace plumbline::workload {

double drawLength(const LengthDist& dist, util::Rng& rng) {
  switch (dist.kind) {
    case DistKind::Fixed:
      return dist.p1;
    case DistKind::Uniform:
      return dist.p1 - 0.5 + (dist.p2 - dist.p1 + 1.0) * rng.uniform01();
    case DistKind::Normal:
      return rng.normal(dist.p1, dist.p2);
    case DistKind::Lognormal:
      return std::exp(std::log(dist.p1) + dist.p2 * rng.normal(0.0, 1.0));
    case DistKind::Exponential:
      return rng.exponential(dist.p1);
  }
  return dist.p1;
}

uint32_t clampAndRound(double value, const LengthDist& dist) {
  const double low = static_cast<double>(std::max<int64_t>(dist.clampMin, 1));
  const double high = static_cast<double>(std::max<int64_t>(dist.clampMax, 1));
  const double clamped = std::isnan(value) ? low : std::clamp(value, low, std::max(low, high));
  return static_cast<uint32_t>(std::max(1.0, std::round(clamped)));
}

uint32_t sampleLength(const LengthDist& dist, util::Rng& rng) {
  return clampAndRound(drawLength(dist, rng), dist);
}

}  // namespace plumbline::workload
