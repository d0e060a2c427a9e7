#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace plumbline::store {

/// One row of `windows`: a time window's counts, percentiles and harness state.
struct WindowRow {
  int64_t idx = 0;
  int64_t startNs = 0;
  int64_t lengthNs = 0;
  int64_t planned = 0;
  int64_t sent = 0;  ///< of those planned in the window
  /// Sends made during the window, whenever they were planned (what it achieved); none (NULL)
  /// for runs stored before schema v8.
  std::optional<int64_t> sentDuring;
  int64_t completed = 0;
  int64_t errors = 0;
  std::string errorsJson = "{}";  ///< {"class name": count}
  int64_t inputTokens = 0;
  int64_t outputTokens = 0;
  int64_t inFlight = 0;
  int64_t connectionsOpen = 0;  ///< client connections open at the window's end
  // Latencies of the window; none (NULL) where it had no sample of that metric: a
  // non-streaming run has no TTFT, a window where nothing was sent no send lag.
  std::optional<double> ttftP50Ms;
  std::optional<double> ttftP99Ms;
  std::optional<double> itlP50Ms;
  std::optional<double> itlP99Ms;
  std::optional<double> e2eP50Ms;
  std::optional<double> e2eP99Ms;
  std::optional<double> sendLagP50Ms;
  std::optional<double> sendLagP99Ms;
  std::optional<double> sendLagMaxMs;
  // Since schema v11; none (NULL) for runs stored before (their windows' histograms have them).
  /// Time to the first answer token (after a reasoning model's thinking); none where no stream
  /// of the window had one.
  std::optional<double> ttfaP50Ms;
  std::optional<double> ttfaP99Ms;
  /// TTFT and end-to-end latency from each request's planned send time (queueing in the harness
  /// included); none where the window had no sample.
  std::optional<double> ttftFromPlannedP50Ms;
  std::optional<double> ttftFromPlannedP99Ms;
  std::optional<double> e2eFromPlannedP50Ms;
  std::optional<double> e2eFromPlannedP99Ms;
  /// Since schema v12: time per output token (RequestRecord::tpotNs) of the requests that ended
  /// in the window, per token where inter-token is per streamed event; none where no stream of
  /// two tokens or more ended, and for runs stored before (their windows' histograms have it
  /// since the histograms had tpot; runs older still have none).
  std::optional<double> tpotP50Ms;
  std::optional<double> tpotP99Ms;
  double workerCpuMax = 0;
  double workerCpuMean = 0;
  double loopDelayMaxMs = 0;
  double cpuWaitMaxMs = -1;  ///< most one worker waited for a CPU in the window; -1 unknown (NULL)
  /// The latest that a session planned in the window reached its worker after it was due (0:
  /// none late); none (NULL) for runs stored before schema v8.
  std::optional<double> handedLateMaxMs;
  int64_t inFlightCapHits = 0;
  bool workerDied = false;

  /// What the window achieved: the sends made during it. `sent` counts its planned requests
  /// whenever they went (a run 8 s behind would show them all sent in its first second); runs
  /// stored before schema v8 have only that.
  int64_t achievedSends() const { return sentDuring.value_or(sent); }
  /// The seconds of the window the run was sending in, given the run's end (runs.duration_s):
  /// the whole window before it, the part up to it in the window it falls in, and none (nullopt)
  /// in the drain after it, where requests only finish and a rate would fall to 0 only because
  /// the run had ended. Without the end, the whole window.
  std::optional<double> sendingSeconds(std::optional<double> runEndS) const {
    const double lengthS = static_cast<double>(lengthNs) / 1e9;
    if (!runEndS) return lengthS;
    const double sendingS = std::min(lengthS, *runEndS - static_cast<double>(startNs) / 1e9);
    if (sendingS <= 1e-9) return std::nullopt;
    return sendingS;
  }

  bool operator==(const WindowRow&) const = default;
};

}  // namespace plumbline::store
