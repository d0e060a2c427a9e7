#include "core/compare/goodput.h"

#include <algorithm>

namespace plumbline::compare {

GoodputCounter::GoodputCounter(Slo slo, bool streaming) : m_slo(slo) {
  if (streaming || !slo.needsStreaming()) return;
  m_unjudgedReason =
      slo.ttftMs ? "no TTFT without streaming" : "no inter-token gaps without streaming";
  m_slo.ttftMs.reset();
  m_slo.itlMs.reset();
}

bool GoodputCounter::meets(const metrics::RequestRecord& r) const {
  if (!r.ok() || r.endNs < 0) return false;
  if (m_slo.ttftMs) {
    int64_t ttft = r.ttftFromPlannedNs();
    if (ttft < 0 || static_cast<double>(ttft) / 1e6 > *m_slo.ttftMs) return false;
  }
  if (const int32_t tokens = gapTokens(r);
      m_slo.itlMs && tokens >= 2 && r.firstTokenNs >= 0 && r.lastTokenNs >= 0) {
    double meanGapMs =
        static_cast<double>(r.lastTokenNs - r.firstTokenNs) / 1e6 / static_cast<double>(tokens - 1);
    if (meanGapMs > *m_slo.itlMs) return false;
  }
  if (m_slo.e2eMs) {
    const int64_t e2e = r.e2eFromPlannedNs();
    if (e2e < 0 || static_cast<double>(e2e) / 1e6 > *m_slo.e2eMs) return false;
  }
  return true;
}

void GoodputCounter::add(const metrics::RequestRecord& r) {
  ++m_requests;
  if (m_slo.any() && meets(r)) ++m_met;
  if (m_slo.itlMs && r.ok() && gapTokens(r) >= 2 && r.firstTokenNs >= 0)
    ++(r.outputTokensServer >= 0 ? m_gapsPerServerCount : m_gapsPerClientCount);
}

Goodput GoodputCounter::result(double durationS, uint64_t planned) const {
  Goodput g;
  g.planned = std::max(planned, m_requests);
  g.requests = m_requests;
  g.met = m_met;
  g.durationS = durationS;
  g.unjudgedReason = m_unjudgedReason;
  g.judged = m_slo.any();
  if (m_gapsPerServerCount > 0 || m_gapsPerClientCount > 0)
    g.itlTokenBasis = m_gapsPerClientCount == 0   ? "server"
                      : m_gapsPerServerCount == 0 ? "client"
                                                  : "mixed";
  return g;
}

}  // namespace plumbline::compare
