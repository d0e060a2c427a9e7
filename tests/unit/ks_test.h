#pragma once
// One-sample Kolmogorov–Smirnov statistic for the distribution tests.
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace plumbline::testing {

/// sup |F_n(x) − F(x)| over the sample.
inline double ksStatistic(std::vector<double> sample, const std::function<double(double)>& cdf) {
  std::sort(sample.begin(), sample.end());
  const double n = static_cast<double>(sample.size());
  double d = 0;
  for (size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(sample[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

/// Critical value at significance 0.001 (asymptotic): a correct sampler fails 1 run in 1000,
/// and the seeds are fixed, so a pass is reproducible.
inline double ksCritical(size_t n) { return 1.949 / std::sqrt(static_cast<double>(n)); }

inline double normalCdf(double x, double mean, double stddev) {
  return 0.5 * std::erfc(-(x - mean) / (stddev * std::sqrt(2.0)));
}

}  // namespace plumbline::testing
