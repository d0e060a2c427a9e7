#pragma once
#include <optional>
#include <string>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// What the embedded simulator (`plumbline mock`) behind a target can serve, estimated from
/// its preset's parameters for requests of the given mean lengths. Rough by design: it is
/// for warnings ("this rate is past what the simulator can have been tested at").
struct EmbeddedCapacity {
  std::string preset;            ///< "default" when the target names none
  double latencyS = 0;           ///< one request alone: TTFT + output × ITL
  std::optional<double> maxRps;  ///< requests/s the simulated engine sustains; none = fixed timing
};

/// nullopt when the target is not "embedded" or names an unknown preset.
std::optional<EmbeddedCapacity> embeddedCapacity(const TargetSpec& target, double meanInput,
                                                 double meanOutput, double temperature);

}  // namespace plumbline::workload
