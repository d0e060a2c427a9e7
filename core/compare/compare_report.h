#pragma once
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "core/compare/comparison.h"

namespace plumbline::compare {

/// Warnings first, then the runs, the metrics table with deltas against the baseline, goodput
/// and the load-latency points.
void printComparison(const Comparison& c, std::ostream& out);

/// {"runs", "warnings", "slo", "metrics", "goodput", "cdfs", "load_latency", "series"}.
nlohmann::json comparisonToJson(const Comparison& c);

/// "+12.5 ms (+3.1%)"-style delta text for a row's run; "-" when unknown. Shared with the UI.
std::string deltaText(const MetricRow& row, size_t run);
/// A figure with as many decimals as its size deserves; "-" when unknown.
std::string figureText(std::optional<double> v);

}  // namespace plumbline::compare
