#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/plan_preview.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// Accumulates planned instants (in order) into ArrivalStats, with Welford's running variance.
class ArrivalStatsBuilder {
 public:
  void add(int64_t plannedNs);
  ArrivalStats finish(double durationS) const;

 private:
  uint64_t m_count = 0;
  int64_t m_previousNs = 0;
  uint64_t m_gaps = 0;
  double m_mean = 0, m_m2 = 0;
};

/// The replayed part of the trace, or nothing for other arrivals.
std::optional<TracePreview> makeTracePreview(const WorkloadSpec& spec);

/// "arrival ..." and "trace ..." lines for `plumbline plan`.
std::string formatArrivalPreview(const PlanPreview& preview, const WorkloadSpec& spec);

/// {"arrival_stats": {...}, "trace": {...}} members for `plumbline plan --json`.
void addArrivalPreviewJson(const PlanPreview& preview, nlohmann::json& out);

/// "constant", "poisson", "gamma" or "trace".
const char* arrivalName(Arrival arrival);

}  // namespace plumbline::workload
