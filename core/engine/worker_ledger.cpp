#include "core/engine/worker_ledger.h"

#include <algorithm>

#include "core/engine/planned_order.h"

namespace plumbline::engine {

void WorkerLedger::handedOut(const workload::SessionPlan& session) {
  if (!m_notDue.empty() && session.plannedNs < m_notDue.back().plannedNs)
    return handedOver({session});
  m_open[session.id] = Open{session.plannedNs, session.requestCount(), 0};
  m_notDue.push_back(session);
}

void WorkerLedger::handedOver(const std::vector<workload::SessionPlan>& sessions) {
  for (const auto& s : sessions) m_open[s.id] = Open{s.plannedNs, s.requestCount(), 0};
  // Kept in planned order: forgetPlansDueBy pops from the front, and a session that came due
  // must never be handed on again as "not yet due" if this worker dies in turn.
  mergeInPlannedOrder(m_notDue, std::vector<workload::SessionPlan>(sessions), [](size_t) {});
}

void WorkerLedger::recorded(const metrics::RequestRecord& r) {
  ++m_recorded;
  auto it = m_open.find(r.sessionId);
  if (it == m_open.end()) return;
  if (++it->second.recorded >= it->second.requests) m_open.erase(it);
}

void WorkerLedger::forgetPlansDueBy(int64_t nowNs) {
  while (!m_notDue.empty() && m_notDue.front().plannedNs <= nowNs) m_notDue.pop_front();
}

WorkerLedger::Settlement WorkerLedger::settle(uint32_t workerId, int64_t atNs) {
  Settlement out;
  forgetPlansDueBy(atNs);
  for (auto& s : m_notDue) {
    m_open.erase(s.id);
    out.notYetDue.push_back(std::move(s));
  }
  m_notDue.clear();

  // Sessions that came due and did not finish, oldest first: the worker sent in planned order,
  // so the oldest unfinished ones are those it had sent.
  std::vector<std::pair<uint64_t, Open>> due(m_open.begin(), m_open.end());
  std::sort(due.begin(), due.end(), [](const auto& a, const auto& b) {
    return a.second.plannedNs != b.second.plannedNs ? a.second.plannedNs < b.second.plannedNs : a.first < b.first;
  });
  out.sentUnreported = m_recorded > m_sent ? m_recorded - m_sent : 0;
  const uint64_t sent = m_sent + out.sentUnreported;
  uint64_t lost = sent - m_recorded;
  uint64_t outstanding = 0;
  for (const auto& [id, o] : due) outstanding += o.requests - o.recorded;
  for (const auto& [id, o] : due) {
    for (uint32_t turn = o.recorded; turn < o.requests && out.lostInFlight.size() < lost; ++turn) {
      metrics::RequestRecord r;
      r.sessionId = id;
      r.turn = turn;
      r.workerId = workerId;
      r.plannedNs = o.plannedNs;  // the session's instant; a later turn's own is not known here
      r.endNs = atNs;
      r.error = metrics::ErrorClass::WorkerLost;
      out.lostInFlight.push_back(r);
    }
  }
  // Sends reported for sessions this ledger never saw cannot happen; if they did, still one
  // record each, so that completed + failed == sent holds.
  while (out.lostInFlight.size() < lost) {
    metrics::RequestRecord r;
    r.workerId = workerId;
    r.plannedNs = atNs;
    r.endNs = atNs;
    r.error = metrics::ErrorClass::WorkerLost;
    out.lostInFlight.push_back(r);
  }
  out.dueNotReportedSent = outstanding > lost ? outstanding - lost : 0;
  m_open.clear();
  m_sent = m_recorded = 0;
  return out;
}

}  // namespace plumbline::engine
