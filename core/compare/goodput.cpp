#include "core/compare/goodput.h"

#include <algorithm>
#include <vector>

namespace plumbline::compare {

namespace {

bool overMs(int64_t ns, double limitMs) {
  return ns < 0 || static_cast<double>(ns) / 1e6 > limitMs;
}

}  // namespace

std::string Slo::names(bool brief) const {
  std::vector<const char*> set;
  if (ttftMs) set.push_back("TTFT");
  if (ttfaMs) set.push_back("TTFA");
  if (itlMs) set.push_back("inter-token");
  if (e2eMs) set.push_back(brief ? "e2e" : "end-to-end");
  std::string out;
  for (size_t i = 0; i < set.size(); ++i)
    out += (i == 0 ? "" : i + 1 == set.size() ? " and " : ", ") + std::string(set[i]);
  return out;
}

GoodputCounter::GoodputCounter(Slo slo, bool streaming, bool answersTimed) : m_slo(slo) {
  if (!streaming && slo.needsStreaming()) {
    m_unjudgedReason = slo.ttftMs   ? "no TTFT without streaming"
                       : slo.ttfaMs ? "no TTFA without streaming"
                                    : "no inter-token gaps without streaming";
    m_slo.ttftMs.reset();
    m_slo.itlMs.reset();
    m_slo.ttfaMs.reset();
  } else if (!answersTimed && slo.ttfaMs) {
    m_unjudgedReason = "no TTFA in a run stored before answer tokens were timed";
    m_slo.ttfaMs.reset();
  }
}

bool GoodputCounter::meets(const metrics::RequestRecord& r) const {
  if (!r.ok() || r.endNs < 0) return false;
  if (m_slo.ttftMs && overMs(r.ttftFromPlannedNs(), *m_slo.ttftMs)) return false;
  if (m_slo.ttfaMs && overMs(r.ttfaFromPlannedNs(), *m_slo.ttfaMs)) return false;
  if (const int64_t tpot = r.tpotNs(); m_slo.itlMs && tpot >= 0 && static_cast<double>(tpot) / 1e6 > *m_slo.itlMs)
    return false;
  if (m_slo.e2eMs && overMs(r.e2eFromPlannedNs(), *m_slo.e2eMs)) return false;
  return true;
}

void GoodputCounter::add(const metrics::RequestRecord& r) {
  ++m_requests;
  if (m_slo.any() && meets(r)) ++m_met;
  if (m_slo.itlMs && r.ok() && r.tpotNs() >= 0)
    ++(r.outputTokensServer >= 0 ? m_gapsPerServerCount : m_gapsPerClientCount);
}

Goodput GoodputCounter::result(double durationS, uint64_t planned) const {
  Goodput g;
  g.planned = std::max(planned, m_requests);
  g.requests = m_requests;
  g.met = m_met;
  g.durationS = durationS;
  g.unjudgedReason = m_unjudgedReason;
  g.judgedOn = m_slo;
  g.judged = m_slo.any();
  if (m_gapsPerServerCount > 0 || m_gapsPerClientCount > 0)
    g.itlTokenBasis = m_gapsPerClientCount == 0   ? "server"
                      : m_gapsPerServerCount == 0 ? "client"
                                                  : "mixed";
  return g;
}

}  // namespace plumbline::compare
