#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// Validates the "requests" section: lengths, prompt source and sampling parameters. Prompt
/// files are resolved against `baseDir` (the workload file's directory).
RequestsSpec parseRequests(const nlohmann::json& value, const std::string& path,
                           const std::string& baseDir = "");

/// Validates "requests.sampling". Keys of `extra` that Plumbline sets itself are errors.
SamplingSpec parseSampling(const nlohmann::json& value, const std::string& path);

}  // namespace plumbline::workload
