#pragma once
#include <array>
#include <cstdint>

#include "core/metrics/error_class.h"
#include "core/metrics/latency_histogram.h"

namespace plumbline::metrics {

/// The latency views kept for every window and for the whole run. Answer ("ttfa"): from the
/// send to the first token of the answer, after a reasoning model's thinking (streams only).
/// Tpot ("tpot"): each completed stream's time per output token (RequestRecord::tpotNs), one
/// value per request, where Itl has one per gap between streamed events.
enum class Metric : uint8_t {
  Ttft,
  Itl,
  E2e,
  SendLag,
  TtftFromPlanned,
  E2eFromPlanned,
  Upload,
  Answer,
  Tpot,
  Count
};
inline constexpr std::array<const char*, static_cast<size_t>(Metric::Count)> kMetricNames = {
    "ttft", "itl", "e2e", "send_lag", "ttft_from_planned", "e2e_from_planned", "upload", "ttfa", "tpot"};

/// What the harness itself did during a window: the evidence behind the verdict.
struct HarnessState {
  double workerCpuMax = 0;       ///< busiest worker's CPU share of one core in the window, 0..1
  double workerCpuMean = 0;
  int64_t loopDelayMaxNs = 0;    ///< worst event-loop delay seen by any worker
  /// The most time one worker spent runnable but waiting for a CPU in the window (other
  /// processes or threads held its core); -1 where no worker could tell.
  int64_t cpuWaitMaxNs = -1;
  int64_t inFlight = 0;          ///< requests in flight at the window's end
  int64_t connectionsOpen = 0;   ///< client connections open at the window's end
  int64_t inFlightCapHits = 0;   ///< sends that waited on max_in_flight
  bool workerDied = false;
  int64_t diedWorkerId = -1;     ///< first worker that died in the window, -1 if none
  int64_t diedAtNs = -1;         ///< when it died, ns since t0
  /// The latest that a session planned in the window reached its worker after it was due: the
  /// coordinator hands sessions out a second ahead, so only a coordinator held up (stopped, or
  /// without a CPU for that long) makes this positive. Stored (windows.handed_late_max_ms) and
  /// judged.
  int64_t handedLateMaxNs = 0;
};

/// One time window of a run. Requests count in the window of their planned time for
/// "planned"/"sent", and in the window of their end for completed/errors/latencies.
struct WindowStats {
  int64_t index = 0;
  int64_t startNs = 0;
  int64_t lengthNs = 1'000'000'000;
  uint64_t planned = 0;
  uint64_t sent = 0;        ///< of those planned in the window
  uint64_t sentDuring = 0;  ///< sends made during the window, whenever planned (the achieved rate)
  uint64_t completed = 0;
  std::array<uint64_t, kErrorClassCount> errors{};  ///< [None] unused
  uint64_t inputTokens = 0;
  uint64_t outputTokens = 0;
  std::array<LatencyHistogram, static_cast<size_t>(Metric::Count)> latency;
  HarnessState harness;

  LatencyHistogram& hist(Metric m) { return latency[static_cast<size_t>(m)]; }
  const LatencyHistogram& hist(Metric m) const { return latency[static_cast<size_t>(m)]; }
  uint64_t errorCount() const;
};

}  // namespace plumbline::metrics
