#pragma once
// A comparison's metric row by key, for the compare tests.
#include <stdexcept>
#include <string>

#include "core/compare/comparison.h"

namespace plumbline::compare::testing {

inline const MetricRow& metricRow(const Comparison& c, const std::string& key) {
  for (const auto& r : c.metrics)
    if (r.key == key) return r;
  throw std::runtime_error("no metric " + key);
}

}  // namespace plumbline::compare::testing
