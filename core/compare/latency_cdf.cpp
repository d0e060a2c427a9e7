#include "core/compare/latency_cdf.h"

#include <algorithm>
#include <cmath>

namespace plumbline::compare {

std::vector<CdfPoint> latencyCdf(const metrics::LatencyHistogram& histogram, size_t maxPoints) {
  std::vector<CdfPoint> out;
  if (histogram.empty()) return out;
  maxPoints = std::max<size_t>(maxPoints, 2);
  const auto buckets = histogram.buckets();
  const auto total = static_cast<double>(histogram.count());
  auto logOf = [](int64_t ns) { return std::log(static_cast<double>(std::max<int64_t>(ns, 1))); };
  // Two criteria, each able to fire at most (maxPoints - 2) / 2 times over the whole range;
  // plus the first and the last point.
  const double budget = static_cast<double>((maxPoints - 2) / 2);
  const double fractionStep = budget > 0 ? 1.0 / budget : 2.0;
  const double logRange = logOf(buckets.back().first) - logOf(buckets.front().first);
  const double logStep = budget > 0 && logRange > 0 ? logRange / budget : INFINITY;

  uint64_t seen = 0;
  double lastFraction = 0, lastLog = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    seen += buckets[i].second;
    double fraction = static_cast<double>(seen) / total;
    double lg = logOf(buckets[i].first);
    bool first = out.empty(), last = i + 1 == buckets.size();
    if (!first && !last && fraction - lastFraction < fractionStep && lg - lastLog < logStep)
      continue;
    if (last) fraction = 1.0;
    out.push_back({static_cast<double>(buckets[i].first) / 1e6, fraction});
    lastFraction = fraction;
    lastLog = lg;
  }
  return out;
}

}  // namespace plumbline::compare
