#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/workload_error.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// Reads and validates a workload file. Throws WorkloadError naming the file or JSON path.
WorkloadSpec loadWorkloadFile(const std::string& path);

/// Validates a parsed document. Unknown keys, wrong types and impossible values throw.
/// Prompt files (tokenizer, dataset) are resolved against `baseDir` and loaded.
WorkloadSpec parseWorkload(const nlohmann::json& document, const std::string& baseDir = "");

/// Replaces the stages with one fixed stage of `rate` for `durationS` (CLI --rate/--duration).
void overrideLoad(WorkloadSpec& spec, std::optional<double> rate, std::optional<double> durationS);

}  // namespace plumbline::workload
