#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "core/metrics/request_record.h"
#include "core/workload/planner.h"

namespace plumbline::engine {

/// What the coordinator knows about one worker's share of the plan, so that nothing is
/// dropped silently when that worker dies (issue 6, "a worker killed mid-run"):
/// - requests it reported sent and never finished were in flight: they become failed records
///   of class worker_lost (one stored row each), their outcome being unknowable;
/// - sessions handed to it whose planned instant had not come are handed to a surviving
///   worker (they were never due, so nothing about them was lost);
/// - requests that came due on it but were never reported sent stay "not sent" (planned −
///   sent), and the settlement says how many, for the run's notes.
class WorkerLedger {
 public:
  /// A session was handed to this worker (the coordinator's feed: in planned order).
  void handedOut(const workload::SessionPlan& session);
  /// Sessions of a dead worker were handed to this one: they fall among those it holds.
  void handedOver(const std::vector<workload::SessionPlan>& sessions);
  /// The worker reported n more sends (its Stats frames).
  void reportedSent(uint64_t n) { m_sent += n; }
  /// The worker finished a request (any outcome).
  void recorded(const metrics::RequestRecord& r);
  /// Sessions planned at or before nowNs are due: they can no longer move to another worker.
  void forgetPlansDueBy(int64_t nowNs);

  struct Settlement {
    std::vector<metrics::RequestRecord> lostInFlight;  ///< class worker_lost, ended at the death
    std::vector<workload::SessionPlan> notYetDue;      ///< for a surviving worker
    uint64_t sentUnreported = 0;  ///< finished requests whose send the worker did not live to report
    /// Requests of its due sessions never reported sent (due and unsent or unreported, or
    /// later turns still waiting on earlier ones): not sent.
    uint64_t dueNotReportedSent = 0;
  };
  /// The worker died at atNs (coordinator clock): account for everything it held.
  Settlement settle(uint32_t workerId, int64_t atNs);

 private:
  struct Open {
    int64_t plannedNs = 0;
    uint32_t requests = 0;
    uint32_t recorded = 0;
  };
  std::unordered_map<uint64_t, Open> m_open;  ///< by session id, until every request finished
  std::deque<workload::SessionPlan> m_notDue;  ///< in planned order
  uint64_t m_sent = 0;
  uint64_t m_recorded = 0;
};

}  // namespace plumbline::engine
