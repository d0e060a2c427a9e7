#include "core/engine/worker_watch.h"

#include <algorithm>

namespace plumbline::engine {

WorkerWatch::WorkerWatch(size_t workers, int64_t silenceLimitNs)
    : m_workers(workers), m_silenceLimitNs(silenceLimitNs) {}

void WorkerWatch::heard(size_t worker, int64_t nowNs) {
  if (worker >= m_workers.size()) return;
  m_workers[worker].lastHeardNs = std::max(m_workers[worker].lastHeardNs, nowNs);
  m_workers[worker].reported = true;
}

void WorkerWatch::ended(size_t worker) {
  if (worker < m_workers.size()) m_workers[worker].ended = true;
}

void WorkerWatch::endBy(int64_t deadlineNs) { m_deadlineNs = std::min(m_deadlineNs, deadlineNs); }

std::vector<WorkerWatch::Overdue> WorkerWatch::check(int64_t nowNs) {
  if (m_lastCheckNs != INT64_MIN && nowNs - m_lastCheckNs > kOwnHoldNs)
    for (auto& w : m_workers) w.lastHeardNs = std::max(w.lastHeardNs, nowNs);
  m_lastCheckNs = nowNs;
  std::vector<Overdue> out;
  for (size_t i = 0; i < m_workers.size(); ++i) {
    Watched& w = m_workers[i];
    if (w.ended) continue;
    const bool pastDeadline = nowNs > m_deadlineNs;
    const int64_t limit =
        w.reported ? m_silenceLimitNs : std::max(m_silenceLimitNs, kFirstReportLimitNs);
    if (!pastDeadline && nowNs - w.lastHeardNs <= limit) continue;
    w.ended = true;
    out.push_back({i, pastDeadline, w.lastHeardNs});
  }
  return out;
}

bool WorkerWatch::quiet(size_t worker, int64_t nowNs) const {
  if (worker >= m_workers.size()) return false;
  const Watched& w = m_workers[worker];
  return !w.ended && w.reported && nowNs - w.lastHeardNs > kQuietNs;
}

std::vector<WorkerWatch::QuietChange> WorkerWatch::quietChanges(int64_t nowNs) {
  std::vector<QuietChange> out;
  for (size_t i = 0; i < m_workers.size(); ++i) {
    const bool q = quiet(i, nowNs);
    if (q == m_workers[i].quietSaid || (m_workers[i].ended && !q)) continue;
    m_workers[i].quietSaid = q;
    out.push_back({i, q});
  }
  return out;
}

}  // namespace plumbline::engine
