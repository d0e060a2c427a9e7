#include "core/metrics/latency_text.h"

#include <cmath>
#include <cstdio>

namespace plumbline::metrics {

std::string latencyMsText(double ms) {
  const double a = std::fabs(ms);
  const int decimals = a >= 999.95 ? 0 : a >= 99.995 ? 1 : a >= 9.9995 ? 2 : 3;
  char b[48];
  std::snprintf(b, sizeof b, "%.*f", decimals, ms);
  return b;
}

}  // namespace plumbline::metrics
