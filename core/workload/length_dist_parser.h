#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// Validates a length distribution object ({"dist": "lognormal", "median": 512, ...}).
/// Throws WorkloadError with the path of the offending field under `path`.
LengthDist parseLengthDist(const nlohmann::json& value, const std::string& path);

class JsonFields;

/// Throws WorkloadError at `key` when a distribution's centre (its fixed value, mean or median;
/// for an exponential, its median, mean × ln 2) lies outside [clampMin, clampMax]: most draws
/// would be cut to a clamp, silently (a fixed length of 2,000,000 ran as 1,000,000, the default
/// max). Used for token lengths and for session delays in seconds.
void checkCenterWithinClamps(double center, const JsonFields& fields, std::string_view key,
                             double clampMin, double clampMax, bool exponential = false);

/// The name used in workload files: "fixed", "uniform", "normal", "lognormal", "exponential".
const char* distKindName(DistKind kind);

}  // namespace plumbline::workload
