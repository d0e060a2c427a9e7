#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// A choice in a valid workload that makes its results unrepresentative or incomparable.
struct WorkloadWarning {
  std::string path;     ///< the JSON path of the field it is about ("requests.sampling.temperature")
  std::string message;  ///< one line
};

/// Every warning for a validated workload, in the order of the file's fields.
std::vector<WorkloadWarning> workloadWarnings(const WorkloadSpec& spec);

/// [{"path": ..., "message": ...}, ...] for `plumbline plan --json`.
nlohmann::json warningsJson(const std::vector<WorkloadWarning>& warnings);

}  // namespace plumbline::workload
