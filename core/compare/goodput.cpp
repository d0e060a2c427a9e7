#include "core/compare/goodput.h"

namespace plumbline::compare {

bool GoodputCounter::meets(const metrics::RequestRecord& r) const {
  if (!r.ok() || r.endNs < 0) return false;
  if (m_slo.ttftMs) {
    int64_t ttft = r.ttftFromPlannedNs();
    if (ttft < 0 || static_cast<double>(ttft) / 1e6 > *m_slo.ttftMs) return false;
  }
  if (m_slo.itlMs && r.outputTokensClient >= 2 && r.firstTokenNs >= 0 && r.lastTokenNs >= 0) {
    double meanGapMs = static_cast<double>(r.lastTokenNs - r.firstTokenNs) / 1e6 /
                       static_cast<double>(r.outputTokensClient - 1);
    if (meanGapMs > *m_slo.itlMs) return false;
  }
  return true;
}

void GoodputCounter::add(const metrics::RequestRecord& r) {
  ++m_requests;
  if (meets(r)) ++m_met;
}

}  // namespace plumbline::compare
