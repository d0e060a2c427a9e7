#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/control_channel.h"
#include "core/engine/frame_codec.h"
#include "core/engine/loop_holds.h"
#include "core/engine/reply_token_queue.h"
#include "core/engine/request_body.h"
#include "core/engine/request_driver.h"
#include "core/engine/session_runner.h"
#include "core/engine/spin_margin.h"
#include "core/engine/worker_config.h"
#include "core/util/cpu_wait.h"

struct event_base;
struct event;

namespace plumbline::engine {

/// A worker process: receives sessions ahead of time over its control socket, fires each at
/// its planned instant (precise timers), drives the HTTP requests, and streams records and
/// its own health (CPU, loop delay, in-flight, sends by window) back to the coordinator.
class Worker {
 public:
  explicit Worker(int controlFd);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  /// Runs until the coordinator's work is done (0) or the coordinator is gone (1).
  int run();

 private:
  static void onSendTimer(int, short, void* self);
  static void onStatsTimer(int, short, void* self);
  static void onFlushTimer(int, short, void* self);
  static void onProbeTimer(int, short, void* self);
  static void onGraceTimer(int, short, void* self);
  static void onCountTimer(int, short, void* self);

  void onFrame(Frame&& f);
  void onClosed(const std::string& why);
  void configure(const std::string& json);
  void sendDue();
  /// Runs the send turn now if it came due while a socket callback ran (RequestDriver's
  /// after-read hook), instead of when the loop next looks at its timers.
  void sendIfDue();
  void armSendTimer();
  void armTimer(event* timer, int64_t delayNs);
  /// Opens keep-alive connections for the first sends before they are due (once, on the
  /// first sessions received).
  void warmConnections();
  void spinUntil(int64_t plannedNs);
  /// What prepareSoon built for one pending session: a plain request's transfer, or a shaped
  /// session's root requests; neither for one whose turn to be built has not come.
  struct Prepared {
    Transfer* single = nullptr;
    std::unique_ptr<SessionRunner::Prepared> roots;
  };
  void startSession(const workload::SessionPlan& s, Prepared prepared);
  void prepareSoon();
  Prepared takePrepared();
  void discard(Prepared& p);
  Transfer* buildRequest(const workload::SessionPlan& s);
  void scheduleCounting(int64_t delayNs);
  void countReplies();
  void noteSend(int64_t plannedNs, int64_t sendNs);
  void dropPending();
  void onRequestDone(Transfer& t);
  void flushRecords();
  void sendStats();
  void stop(int64_t graceNs);
  void maybeFinish();
  void fatal(const std::string& why);
  void reportLimit(HarnessLimit limit);
  void reportFirstFailure(const Transfer& t);

  event_base* m_base = nullptr;
  std::unique_ptr<ControlChannel> m_channel;
  std::optional<WorkerConfig> m_config;
  std::unique_ptr<RequestDriver> m_http;
  std::unique_ptr<RequestBodyBuilder> m_bodies;
  std::unique_ptr<SessionRunner> m_sessionRunner;  ///< shaped sessions (multi_turn, tree, ...)
  event* m_sendTimer = nullptr;
  event* m_statsTimer = nullptr;
  event* m_flushTimer = nullptr;
  event* m_probeTimer = nullptr;
  event* m_graceTimer = nullptr;
  event* m_countTimer = nullptr;
  /// Output tokens counted with the prompt tokenizer, between sends; null without a tokenizer.
  std::unique_ptr<ReplyTokenQueue> m_replyTokens;

  std::deque<workload::SessionPlan> m_pending;
  /// Bodies built ahead of their planned instant: entry i belongs to m_pending[i] (a shaped
  /// session's are its root requests; those that depend on replies are built when due).
  std::deque<Prepared> m_prepared;
  int64_t m_buildMaxNs = -1;  ///< the longest a request body took to build; -1 before the first
  int64_t m_prepareNs;        ///< bodies are built this long before their send (prepareSoon)
  std::vector<metrics::RequestRecord> m_records;
  LoopHolds m_holds;  ///< the loop's holds, to mark the records of requests in flight across one
  std::map<int64_t, metrics::SendReport> m_sends;  ///< by planned-time window, since last stats
  std::vector<std::pair<int64_t, uint64_t>>
      m_sentBySlice;  ///< by send-time slice, since last stats
  uint64_t m_sessionsReceived = 0;
  uint64_t m_notSent = 0;        ///< stopped, or still pending when the schedule ended
  uint64_t m_notSentCapHeld = 0;  ///< of those, pending at the schedule's end behind the cap
  uint64_t m_notSentBehind = 0;   ///< pending at the schedule's end, the cap not in the way
  int64_t m_capHits = 0;
  uint64_t m_lastCapBlockedId = UINT64_MAX;
  int64_t m_probeDueNs = 0;
  int64_t m_loopDelayMaxNs = 0;
  int64_t m_lastStatsWallNs = 0;
  int64_t m_lastStatsCpuNs = 0;
  util::CpuWait m_cpuWait;  ///< this (the loop's) thread's run-queue wait, for the stats
  int64_t m_lastCpuWaitNs = -1;
  int64_t m_spinNs = 0;  ///< spent spinning to planned instants since the last stats
  SpinMargin m_spinMargin;  ///< how early the send timer fires; the rest is spun
  int64_t m_sendTurnEndNs = 0;  ///< when the last send turn (spin and sends) ended, monotonic
  int64_t m_sendTimerAtNs = -1;  ///< when the sleeping send timer was asked to fire (run time), else -1
  int64_t m_sendTurnDueNs = -1;  ///< when the sleeping send timer's turn is due (run time), else -1
  bool m_warmed = false;  ///< connections for the first sends opened (warmConnections)
  bool m_endOfSessions = false;
  bool m_stopping = false;
  bool m_doneSent = false;
  int m_exitCode = 0;
  uint8_t m_limitsReported = 0;  ///< bit per HarnessLimit already named to the coordinator
  uint32_t m_failuresSampled = 0;  ///< bit per ErrorClass whose first reply was sent on
};

/// Entry point of `plumbline worker --fd N` (internal).
int runWorkerProcess(int controlFd);

}  // namespace plumbline::engine
