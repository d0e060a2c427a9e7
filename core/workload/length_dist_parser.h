#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// Validates a length distribution object ({"dist": "lognormal", "median": 512, ...}).
/// Throws WorkloadError with the path of the offending field under `path`.
LengthDist parseLengthDist(const nlohmann::json& value, const std::string& path);

/// The name used in workload files: "fixed", "uniform", "normal", "lognormal", "exponential".
const char* distKindName(DistKind kind);

}  // namespace plumbline::workload
