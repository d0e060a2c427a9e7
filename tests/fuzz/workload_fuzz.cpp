// Fuzzes the workload loader: any text is either a valid workload or a WorkloadError (or a
// JSON parse error before it); a valid one is planned for its first sessions.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/workload/planner.h"
#include "core/workload/workload_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  try {
    const auto spec = plumbline::workload::parseWorkload(doc);
    plumbline::workload::Planner planner(spec);
    plumbline::workload::SessionPlan s;
    for (int i = 0; i < 1000 && planner.next(s); ++i) {
    }
  } catch (const plumbline::workload::WorkloadError&) {
  }
  return 0;
}
