// The coordinator's side of losing a worker: a death seen, a stalled worker killed, what it held
// settled, and who takes its sessions. The rest of the coordinator is in coordinator.cpp.
#include <signal.h>

#include <algorithm>

#include "core/engine/coordinator.h"
#include "core/engine/coordinator_text.h"

namespace plumbline::engine {

using coordinator_text::fmtSeconds;
using coordinator_text::kHandedToSurvivors;

void Coordinator::onWorkerClosed(WorkerSlot& w, const std::string& why) {
  if (w.done || w.dead) return;
  // Before t0 the run's clock does not run yet: a death then is at its start.
  const int64_t now = m_t0 == 0 ? 0 : nowRel();
  const std::string status = reapWorker(w.proc.pid, 500);
  loseWorker(w, now, "died " + whenText(now) + " (" + why + ", " + status + ")");
}

void Coordinator::killOverdue(WorkerSlot& w, const WorkerWatch::Overdue& o, int64_t nowNs) {
  if (w.done || w.dead) return;
  kill(w.proc.pid, SIGKILL);  // our own child, not yet reaped: the pid is still its
  reapWorker(w.proc.pid, 1000);
  const std::string what =
      o.pastDeadline
          ? "had not ended " + fmtSeconds(m_watch.deadlineNs() - std::max<int64_t>(0, m_stopAtNs)) +
                " after the stop at " + fmtSeconds(std::max<int64_t>(0, m_stopAtNs)) +
                " (its last report " + whenText(o.lastHeardNs) + "); killed " + whenText(nowNs)
          : "stopped answering " + whenText(o.lastHeardNs) + " (no report for " +
                fmtSeconds(m_watch.silenceLimitNs()) + "); killed " + whenText(nowNs);
  loseWorker(w, nowNs, what);
}

void Coordinator::loseWorker(WorkerSlot& w, int64_t atNs, const std::string& what) {
  w.dead = true;
  m_watch.ended(w.proc.id);
  atNs = std::max<int64_t>(0, atNs);
  m_aggregator.markWorkerDied(w.proc.id, atNs);
  m_reasons.push_back("worker " + std::to_string(w.proc.id) + " " + what +
                      "; its requests in flight were lost");
  notice("error", m_reasons.back());
  if (m_opt.observer) m_opt.observer->onWorkerGone(w.proc.id);
  settleLostWorker(w, atNs);
  m_everyWorkerLost =
      std::all_of(m_workers.begin(), m_workers.end(), [](const WorkerSlot& o) { return o.dead; });
  // A worker killed together with this one may have taken its sessions before its end was seen.
  for (std::string& note : m_notes)
    if (const size_t at = note.find(kHandedToSurvivors);
        m_everyWorkerLost && at != std::string::npos)
      note.replace(at, kHandedToSurvivors.size(),
                   " sessions not yet due were handed to a worker that died too");
  checkFinished();
}

std::string Coordinator::whenText(int64_t atNs) const {
  return m_t0 == 0 || atNs < 0 ? "during start-up" : "at " + fmtSeconds(atNs);
}

void Coordinator::settleLostWorker(WorkerSlot& w, int64_t atNs) {
  WorkerLedger::Settlement s = w.ledger.settle(w.proc.id, atNs);
  if (s.sentUnreported > 0) {
    // Finished requests whose sends the worker did not live to report: count them sent.
    metrics::SendReport report;
    report.windowIndex = m_aggregator.windowIndexAt(atNs);
    report.sent = s.sentUnreported;
    m_aggregator.addSends(report);
  }
  if (!s.lostInFlight.empty()) {
    for (const auto& r : s.lostInFlight) m_aggregator.addRecord(r);
    m_sink.onRecords(s.lostInFlight);
    const bool one = s.lostInFlight.size() == 1;
    m_notes.push_back(
        "worker " + std::to_string(w.proc.id) + ": " + std::to_string(s.lostInFlight.size()) +
        (one ? " request in flight when it died is" : " requests in flight when it died are") +
        " counted as failed (worker_lost)");
  }
  if (s.dueNotReportedSent > 0) {
    m_aggregator.addNotSent(s.dueNotReportedSent);
    m_notSentWorkerDied += s.dueNotReportedSent;
    m_notes.push_back(
        "worker " + std::to_string(w.proc.id) + ": " + std::to_string(s.dueNotReportedSent) +
        (s.dueNotReportedSent == 1 ? " request" : " requests") +
        " of its sessions were not reported sent before it died: counted as not sent");
  }
  if (m_opt.stopOnWorkerLoss && m_stopAtNs < 0) {
    m_notes.push_back("worker " + std::to_string(w.proc.id) +
                      " died: stopping (--on-worker-loss stop)");
    notice("warning", m_notes.back());
    requestStop();
  }
  uint64_t moved = 0;
  for (auto& plan : s.notYetDue) {
    WorkerSlot* to = nextLiveWorker();
    if (to == nullptr || m_stopAtNs >= 0) break;
    to->batch.push_back(plan);
    ++moved;
  }
  for (auto& o : m_workers) {
    if (o.batch.empty() || o.dead) continue;
    o.ledger.handedOver(o.batch);  // merged among its own, once per survivor
    sendBatch(o);
  }
  if (moved > 0)
    m_notes.push_back("worker " + std::to_string(w.proc.id) + ": " + std::to_string(moved) +
                      std::string(kHandedToSurvivors));
  if (!m_notes.empty() && (moved > 0 || !s.lostInFlight.empty())) notice("warning", m_notes.back());
}

Coordinator::WorkerSlot* Coordinator::nextLiveWorker() {
  for (size_t i = 0; i < m_workers.size(); ++i) {
    WorkerSlot& w = m_workers[m_rr++ % m_workers.size()];
    // A worker whose end the loop has not read yet (killed together with another) is no survivor.
    if (!w.dead && !w.done && !workerExited(w.proc.pid)) return &w;
  }
  return nullptr;
}

}  // namespace plumbline::engine
