#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "core/metrics/latency_histogram.h"
#include "core/metrics/request_record.h"
#include "core/metrics/run_summary.h"
#include "core/metrics/verdict.h"
#include "core/metrics/window_stats.h"

namespace plumbline::metrics {

/// Per-worker sample reported periodically (every ~250 ms) by each worker.
struct WorkerSample {
  uint32_t workerId = 0;
  int64_t atNs = 0;              ///< sample time since t0
  double cpuFraction = 0;        ///< CPU used since the last sample / wall time since it
  int64_t loopDelayMaxNs = 0;    ///< worst timer lateness since the last sample
  int64_t inFlight = 0;
  int64_t inFlightCapHits = 0;   ///< since the last sample
  int64_t connectionsOpen = 0;   ///< client connections the worker holds open
  int64_t cpuWaitNs = -1;        ///< waited, runnable, for a CPU since the last sample; -1 unknown
};

/// Sends a worker made, grouped by the window of their planned time (reported with samples).
struct SendReport {
  int64_t windowIndex = 0;
  uint64_t sent = 0;         ///< sends planned in the window
  LatencyHistogram sendLag;  ///< of those sends
  uint64_t sentDuring = 0;   ///< sends made during the window, whenever they were planned
};

/// Builds the run's windows and totals from what workers report. Single-threaded: the
/// coordinator owns it. Windows are fixed-length from t0; a window closes once the clock has
/// passed its end by closeDelayNs, after which it is final (stored, streamed) and late
/// arrivals count only towards the run totals.
class RunAggregator {
 public:
  explicit RunAggregator(int64_t windowNs = 1'000'000'000, int64_t closeDelayNs = 1'000'000'000);

  int64_t windowNs() const { return m_windowNs; }
  int64_t windowIndexAt(int64_t ns) const;

  /// The planner scheduled a session request at plannedNs.
  void addPlanned(int64_t plannedNs, uint64_t count = 1);
  /// A request finished (any outcome). Its latencies go to the window of its end time.
  void addRecord(const RequestRecord& r);
  /// Inter-token gaps observed by a worker around atNs.
  void addItl(const LatencyHistogram& gaps, int64_t atNs);
  /// Sends for a window. Late reports for a closed window still correct the verdict's
  /// per-window sent count and send-lag p99 (not the window already stored: counted in
  /// lateAfterStored()); addPlanned does the same for planned.
  void addSends(const SendReport& report);
  /// Per window: workerCpuMax is the busiest worker's mean over its samples there,
  /// workerCpuMean the mean of all samples, inFlight and connectionsOpen the sum of each
  /// worker's latest sample, cpuWaitMaxNs the most any one worker's samples there waited for
  /// a CPU (a sample covers the time since that worker's previous one).
  void addWorkerSample(const WorkerSample& s);
  /// Requests known, while the run goes, never to be sent (dropped at a stop, parent failed,
  /// due on a worker that died). The final figure is planned − sent (RunSummary::notSent).
  void addNotSent(uint64_t n) { m_notSentKnown += n; }
  uint64_t notSentKnown() const { return m_notSentKnown; }
  /// A worker died at atNs: its window is marked and the verdict will say so.
  void markWorkerDied(uint32_t workerId, int64_t atNs);
  /// A session planned at `plannedNs` was handed to its worker `latenessNs` after it was due.
  void markHandedLate(int64_t plannedNs, int64_t latenessNs);

  /// Windows that closed by nowNs, in order; each is returned once. A window whose sends are
  /// not all known yet (it ends after sendsKnownThroughNs: a worker still holds requests
  /// planned in it) is held open, up to kMaxSendHoldNs past its close, so that its row says
  /// every send of it.
  std::vector<WindowStats> takeClosedWindows(int64_t nowNs,
                                             int64_t sendsKnownThroughNs = INT64_MAX);
  static constexpr int64_t kMaxSendHoldNs = 10'000'000'000;
  /// Closes every remaining window (end of run), in order.
  std::vector<WindowStats> takeAllWindows();

  /// Sends and planned requests reported after their window was closed (stored, streamed):
  /// the run's totals and verdict count them, that window's row does not.
  struct LateAfterStored {
    uint64_t sent = 0;
    uint64_t planned = 0;
    int64_t firstWindow = -1;
    int64_t lastWindow = -1;
  };
  const LateAfterStored& lateAfterStored() const { return m_lateAfterStored; }

  /// Whole-run histograms (all windows merged, late arrivals included).
  const LatencyHistogram& total(Metric m) const { return m_total[static_cast<size_t>(m)]; }
  uint64_t planned() const { return m_planned; }
  uint64_t sent() const { return m_sent; }
  /// Sent requests that reached the target: a harness_limit failure (no descriptor or port
  /// for its connection, or not written before its timeout because its worker was held) was
  /// due and counted as sent, but never left this machine.
  uint64_t reachedTarget() const {
    const uint64_t neverLeft = m_errors[static_cast<size_t>(ErrorClass::HarnessLimit)];
    return m_sent > neverLeft ? m_sent - neverLeft : 0;
  }
  uint64_t completed() const { return m_completed; }
  const std::array<uint64_t, kErrorClassCount>& errors() const { return m_errors; }
  uint64_t inputTokens() const { return m_inputTokens; }
  uint64_t outputTokens() const { return m_outputTokens; }
  /// True when every completed record carried server usage counts.
  bool allServerCounts() const { return m_recordsWithoutServerCounts == 0; }

  /// Summary of the run so far. Judges with `policy` over every window closed so far (call
  /// after takeAllWindows for the final verdict); extraReasons are added as-is.
  RunSummary summarize(double durationS, double requestedRps, const VerdictPolicy& policy,
                       const std::vector<std::string>& extraReasons = {}) const;

 private:
  /// A worker's samples within one open window.
  struct WorkerInWindow {
    double cpuSum = 0;
    uint64_t samples = 0;
    int64_t latestAtNs = -1;
    int64_t latestInFlight = 0;
    int64_t latestConnectionsOpen = 0;
    int64_t cpuWaitNs = -1;  ///< sum over the samples that knew it; -1 while none did
  };
  /// A window still accepting data, plus the scratch its harness state is built from.
  struct OpenWindow {
    WindowStats stats;
    std::map<uint32_t, WorkerInWindow> workers;
    double cpuSum = 0;
    uint64_t cpuSamples = 0;
  };
  /// Windows this far past the first open one are ignored (totals only): a bogus timestamp
  /// must not allocate millions of windows.
  static constexpr int64_t kMaxWindowsAhead = 100'000;

  /// The open window at index, created with any before it; nullptr if closed or too far.
  OpenWindow* openWindow(int64_t index);
  /// The harness state of the window holding `atNs` (run time), closed or open.
  HarnessState& harnessAt(int64_t atNs);
  WindowStats closeFront();
  void addLatencies(const RequestRecord& r, WindowStats* w);
  void noteLateAfterStored(int64_t index);

  int64_t m_windowNs;
  int64_t m_closeDelayNs;
  int64_t m_firstOpen = 0;           ///< index of the first window not yet closed
  std::deque<OpenWindow> m_open;     ///< windows m_firstOpen, m_firstOpen + 1, ...
  /// One entry per closed window, index 0 first: only what judge() needs, not histograms,
  /// so a long run costs ~100 bytes per window here.
  std::vector<WindowEvidence> m_closedForVerdict;
  LateAfterStored m_lateAfterStored;
  std::array<LatencyHistogram, static_cast<size_t>(Metric::Count)> m_total;
  uint64_t m_planned = 0, m_sent = 0, m_completed = 0;
  uint64_t m_notSentKnown = 0;
  std::array<uint64_t, kErrorClassCount> m_errors{};
  uint64_t m_retryAfterResponses = 0;
  int64_t m_retryAfterMinMs = -1, m_retryAfterMaxMs = -1;
  uint64_t m_inputTokens = 0, m_outputTokens = 0;
  uint64_t m_thoughtFirst = 0;  ///< completed requests whose first token was not the answer's
  /// Over completed streams timed per token (Metric::Tpot): their tokens after the first, which
  /// over the inter-token gaps is how many tokens a streamed event carried.
  uint64_t m_tokensAfterFirst = 0;
  LatencyHistogram m_held;      ///< RequestRecord::heldNs of the completed requests that had one
  uint64_t m_outputCounted = 0;  ///< completed requests with an output count (server or client)
  uint64_t m_clientOutputCounted = 0;  ///< completed requests the client counted the output of
  int64_t m_lastEndNs = 0;  ///< when the last reply ended (since t0): the token rates' span
  uint64_t m_recordsWithoutServerCounts = 0;
  uint64_t m_recordsWithServerCounts = 0;
  /// Each side's own totals, kept apart from the preferred counts above.
  uint64_t m_serverIn = 0, m_serverOut = 0, m_clientIn = 0, m_clientOut = 0;
};

}  // namespace plumbline::metrics
