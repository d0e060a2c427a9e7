#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/control_channel.h"
#include "core/engine/embedded_shortage_watch.h"
#include "core/engine/output_length_check.h"
#include "core/engine/run_observer.h"
#include "core/engine/run_sink.h"
#include "core/engine/verdict_policy.h"
#include "core/engine/worker_config.h"
#include "core/engine/worker_ledger.h"
#include "core/engine/worker_pool.h"
#include "core/engine/worker_watch.h"
#include "core/metrics/failure_sample.h"
#include "core/metrics/run_aggregator.h"
#include "core/workload/planner.h"

struct event_base;
struct event;

namespace plumbline::engine {

struct CoordinatorOptions {
  std::string executable;              ///< what to exec for workers (normally ourselves)
  std::string endpointUrl;             ///< full completion URL
  std::string apiKey;                  ///< kept in memory; sent to workers over socket pairs
  uint32_t workers = 1;
  int64_t windowNs = 1'000'000'000;
  int64_t lookaheadNs = 1'000'000'000; ///< sessions reach workers this far ahead of time
  int64_t graceNs = 10'000'000'000;    ///< after a stop, in-flight requests may finish this long
  bool statusLine = false;             ///< live one-line status on stderr
  /// Notices (a worker quiet or dead, the first failure of each class, a stop) also on stderr as
  /// they happen, not only on the live stream: a terminal user hears of them during the run.
  bool printNotices = false;
  /// A worker died: stop the run (as SIGINT does) instead of handing its sessions that are not
  /// yet due to the surviving workers.
  bool stopOnWorkerLoss = false;
  RunObserver* observer = nullptr;     ///< live telemetry (--live); not owned, may be null
  /// The embedded target's accept shortages (EmbeddedTarget::acceptShortage); null for a URL.
  const mock::AcceptShortage* embeddedShortage = nullptr;
};

/// How the run ended, for the summary and the exit code.
struct RunOutcome {
  metrics::RunSummary summary;
  std::vector<std::string> notes;  ///< stopped by signal, worker errors...
  bool stoppedEarly = false;
  int stopSignal = 0;  ///< the signal that stopped the run (SIGINT, SIGTERM), 0 when none did
  std::array<metrics::LatencyHistogram, static_cast<size_t>(metrics::Metric::Count)> totals;
};

/// Plans the workload, hands sessions to worker processes ahead of their time, gathers what
/// they measure into windows and a verdict. Never sends a request itself.
class Coordinator {
 public:
  Coordinator(const workload::WorkloadSpec& spec, CoordinatorOptions options, RunSink& sink);
  ~Coordinator();
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;

  RunOutcome run();
  /// Asks the run to stop (as SIGINT does): no new sends, in-flight requests get the grace.
  void requestStop();

 private:
  struct WorkerSlot {
    WorkerProcess proc;
    std::unique_ptr<ControlChannel> channel;
    std::vector<workload::SessionPlan> batch;
    bool done = false;
    bool dead = false;
    WorkerLedger ledger;  ///< what it holds, to account for it if it dies
    int64_t sendsThroughNs = INT64_MIN;  ///< its latest StatsReport::sendsThroughNs
    int64_t reportedAtNs =
        INT64_MIN;  ///< its latest StatsReport's sample time: sends up to it are in
  };

  static void onTick(int, short, void* self);
  static void onSignal(int, short, void* self);
  void start();
  void waitForWorkers();
  void tick();
  void handOut(int64_t horizonNs);
  void sendBatch(WorkerSlot& w);
  void countPlannedUpTo(int64_t nowNs);
  /// The instant up to which every running worker has reported its sends (INT64_MAX when none
  /// runs).
  int64_t sendsReportedThrough() const;
  void onWorkerFrame(WorkerSlot& w, Frame&& f);
  void onWorkerClosed(WorkerSlot& w, const std::string& why);
  /// Kills a worker that stopped answering or outlived the stop's deadline, and settles it as lost.
  void killOverdue(WorkerSlot& w, const WorkerWatch::Overdue& o, int64_t nowNs);
  void loseWorker(WorkerSlot& w, int64_t atNs, const std::string& what);
  std::string whenText(int64_t atNs) const;
  void closeWindows(int64_t nowNs);
  void printStatus(int64_t nowNs);
  void checkFinished();
  void settleLostWorker(WorkerSlot& w, int64_t atNs);
  WorkerSlot* nextAliveWorker(int64_t nowNs);
  WorkerSlot* nextLiveWorker();  ///< alive and not finished: can still take sessions
  std::optional<workload::SessionPlan> nextPlanned();
  int64_t nowRel() const;
  void notice(const std::string& level, const std::string& text);
  void noticeRetryAfter(const metrics::RequestRecord& r);
  void pollEmbeddedShortage(int64_t nowNs);
  /// Says which workers turned quiet, or answered again, since the last tick.
  void tellQuietChanges(int64_t nowNs);
  /// Tells the observer, and says at most every 5 s, that sessions were handed out late (by up to
  /// lateMaxNs at nowNs) when that was the verdict's send-lag tolerance or more.
  void tellHandedLate(int64_t nowNs, int64_t lateMaxNs);
  /// Says, at most every 5 s, that a worker's event loop was held (by heldNs, its report's
  /// worst loop delay) the verdict's hold tolerance or more: timings across it may be late.
  void tellLoopHeld(uint32_t worker, int64_t heldNs);
  /// A first timeout sent while the embedded mock could not accept says so.
  void explainTimeoutSample(metrics::FailureSample& sample);

  const workload::WorkloadSpec& m_spec;
  CoordinatorOptions m_opt;
  RunSink& m_sink;
  workload::Planner m_planner;
  metrics::RunAggregator m_aggregator;
  OutputLengthCheck m_lengths;
  EmbeddedShortageWatch m_embeddedShortage;
  event_base* m_base = nullptr;
  event* m_tick = nullptr;
  event* m_sigint = nullptr;
  event* m_sigterm = nullptr;
  event* m_sighup = nullptr;  ///< none when SIGHUP was ignored at start (nohup)
  std::vector<WorkerSlot> m_workers;
  WorkerWatch m_watch;
  std::optional<workload::SessionPlan> m_next;
  /// A session handed out whose planned instant has not been counted yet.
  struct HandedOut {
    int64_t plannedNs;
    uint32_t roots;     ///< requests due at that instant (counted into its window then)
    uint32_t requests;  ///< all its requests (dependent ones are counted when workers say they are due)
  };
  void countSession(const HandedOut& h);
  std::deque<HandedOut> m_handedOutPlanned;  ///< planned instants not yet counted as planned
  /// Sessions handed out for after the stop instant. A worker keeps sending until the Stop
  /// frame reaches it, so some of these may have been sent: those count as planned after all.
  std::deque<HandedOut> m_afterStop;
  int m_stopSignal = 0;                ///< the first stop signal received
  bool m_everyWorkerLost = false;      ///< no worker was left to finish the run
  int64_t m_latestSentPlannedNs = -1;  ///< the latest planned instant of any request recorded
  bool m_sessionGraphs = false;              ///< sessions carry request graphs (shaped or shared prefix)
  uint64_t m_plannedRequests = 0;            ///< exact: the sum of the counted sessions' requests
  uint64_t m_notSentRunEnded = 0;      ///< as workers reported (the note derives it exactly)
  uint64_t m_notSentParentFailed = 0;
  uint64_t m_notSentWorkerDied =
      0;  ///< requests of a dead worker's sessions it never reported sent
  /// Still pending on a worker when the schedule ended: behind the in-flight cap, or not
  /// reached in time (its Done frame).
  uint64_t m_notSentCapHeld = 0, m_notSentBehind = 0;
  size_t m_rr = 0;
  int64_t m_t0 = 0;
  int64_t m_stopAtNs = -1;
  int64_t m_lastStatusNs = 0;
  bool m_planExhausted = false;
  bool m_endSent = false;
  bool m_retryAfterNoticed = false;  ///< the live notice of the run's first Retry-After went out
  int64_t m_handedLateNoticedNs = -1;  ///< when the latest "handed out late" notice went out
  int64_t m_loopHeldNoticedNs = -1;    ///< when the latest "event loop was held" notice went out
  /// The verdict's hold tolerance, read once (tellLoopHeld runs on every worker report).
  const int64_t m_holdToleranceNs = verdictPolicyOf(m_spec.verdict).holdToleranceNs;
  std::vector<std::string> m_reasons;
  metrics::FailureSamples m_failureSamples;  ///< the earliest sent of each failing HTTP class
  std::vector<std::string> m_notes;
  std::optional<metrics::WindowStats> m_lastWindow;
};

}  // namespace plumbline::engine
