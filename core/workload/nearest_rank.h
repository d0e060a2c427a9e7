#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace plumbline::workload {

/// Nearest-rank percentile `p` (0..100) of a sorted, non-empty vector.
template <typename T>
T nearestRank(const std::vector<T>& sorted, double p) {
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

}  // namespace plumbline::workload
