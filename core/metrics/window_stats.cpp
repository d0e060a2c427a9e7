#include "core/metrics/window_stats.h"

namespace plumbline::metrics {

uint64_t WindowStats::errorCount() const {
  uint64_t n = 0;
  for (size_t i = 1; i < kErrorClassCount; ++i) n += errors[i];  // [None] is not an error
  return n;
}

}  // namespace plumbline::metrics
