#pragma once
// Regularized lower incomplete gamma P(a, x): the gamma distribution's CDF for the KS tests
// (series for x < a + 1, Lentz's continued fraction otherwise; Numerical Recipes §6.2).
#include <cmath>

namespace plumbline::testing {

inline double regularizedGammaP(double a, double x) {
  if (x <= 0) return 0;
  const double logPrefix = -x + a * std::log(x) - std::lgamma(a);
  if (x < a + 1) {
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 10000 && std::fabs(term) > std::fabs(sum) * 1e-15; ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * std::exp(logPrefix);
  }
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-15) break;
  }
  return 1 - std::exp(logPrefix) * h;
}

/// CDF of Gamma(shape, scale).
inline double gammaCdf(double x, double shape, double scale) {
  return regularizedGammaP(shape, x / scale);
}

}  // namespace plumbline::testing
