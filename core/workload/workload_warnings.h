#pragma once
#include <optional>
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

/// The warning for replayed trace rows whose 0 input or output length is sent as 1 (also a
/// note of the run that sends them); none when no such row is replayed with its lengths.
std::optional<WorkloadWarning> zeroLengthRowsWarning(const WorkloadSpec& spec);

/// [{"path": ..., "message": ...}, ...] for `plumbline plan --json`.
nlohmann::json warningsJson(const std::vector<WorkloadWarning>& warnings);

}  // namespace plumbline::workload
