#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/metrics/window_stats.h"

namespace plumbline::metrics {

enum class VerdictKind { KeptUp, HarnessLimited };
std::string verdictName(VerdictKind k);  ///< "kept_up" | "harness_limited"
std::optional<VerdictKind> verdictFromName(std::string_view name);

struct VerdictPolicy {
  double minSentFraction = 0.99;          ///< of planned, overall and per window
  int64_t sendLagToleranceNs = 1'000'000; ///< p99 send lag limit, per window
  double cpuSaturated = 0.95;             ///< a worker this busy in a window is saturated
  /// Completed requests in flight while a worker's loop was held this long or longer: their
  /// timings may include the hold. Over kMaxHeldShare of them make the run harness_limited.
  int64_t holdToleranceNs = 10'000'000;
};

/// The share of completed requests whose timings may include a hold of the worker's loop that a
/// run can have and keep its p99s: a p99 leaves out the slowest 1%.
inline constexpr double kMaxHeldShare = 0.01;

struct Verdict {
  VerdictKind kind = VerdictKind::KeptUp;
  /// Human-readable reasons, each naming when (window seconds) and why.
  std::vector<std::string> reasons;
  /// Stopped before any request came due: there was no load to judge, and no verdict is given
  /// (null in the summary and the database) rather than a "kept_up" nobody earned.
  bool nothingDue = false;
};

/// What the verdict needs from one window, without its histograms: small enough to keep
/// for every window of a long run.
struct WindowEvidence {
  int64_t index = 0;
  int64_t startNs = 0;
  int64_t lengthNs = 1'000'000'000;
  uint64_t planned = 0;
  uint64_t sent = 0;
  int64_t sendLagP99Ns = 0;
  /// The window's send lags as sparse (value, count) buckets, for pooling short windows.
  std::vector<std::pair<int64_t, uint64_t>> sendLag;
  HarnessState harness;

  static WindowEvidence from(const WindowStats& w);
  /// Sends reported after the window closed: counted, and their lags in its p99.
  void addLateSends(uint64_t n, const LatencyHistogram& lags);
};

/// Fewest sends a send-lag p99 is taken over: the p99 of fewer values is just their maximum.
/// Windows with fewer sends are judged together with the windows that follow them.
inline constexpr uint64_t kMinSendsForLagP99 = 100;

/// Judges the harness from what it measured. Windows are the run's full windows in order;
/// totals are the run's planned and sent counts. Kept up only if the run sent at least
/// minSentFraction of planned overall and in every window with planned > 0, send-lag p99 is
/// within tolerance in every window (windows of fewer than kMinSendsForLagP99 sends are
/// pooled with their successors), no worker was CPU saturated and none died. Any
/// extraReasons also make the run harness_limited. In-flight cap hits are listed only as
/// supporting evidence of a harness_limited verdict.
Verdict judge(const std::vector<WindowStats>& windows, uint64_t planned, uint64_t sent,
              const VerdictPolicy& policy, const std::vector<std::string>& extraReasons = {});
/// Final: the run is over, every window is judged. SoFar: the run is still going, so the
/// windows after the last complete group of kMinSendsForLagP99 sends are not judged for send
/// lag yet (the live stream's reasons then never say more than the final verdict will).
enum class Judging : uint8_t { Final, SoFar };
/// Same, from the compact per-window evidence RunAggregator keeps.
Verdict judgeEvidence(const std::vector<WindowEvidence>& windows, uint64_t planned,
                      uint64_t sent, const VerdictPolicy& policy,
                      const std::vector<std::string>& extraReasons = {}, Judging judging = Judging::Final);

/// "41,230": digits grouped by thousands, as reasons print counts.
std::string formatCount(uint64_t n);

}  // namespace plumbline::metrics
