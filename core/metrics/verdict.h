#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/metrics/window_stats.h"

namespace plumbline::metrics {

enum class VerdictKind { KeptUp, HarnessLimited };
std::string verdictName(VerdictKind k);  ///< "kept_up" | "harness_limited"

struct VerdictPolicy {
  double minSentFraction = 0.99;          ///< of planned, overall and per window
  int64_t sendLagToleranceNs = 1'000'000; ///< p99 send lag limit, per window
  double cpuSaturated = 0.95;             ///< a worker this busy in a window is saturated
};

struct Verdict {
  VerdictKind kind = VerdictKind::KeptUp;
  /// Human-readable reasons, each naming when (window seconds) and why.
  std::vector<std::string> reasons;
};

/// Judges the harness from what it measured. Windows are the run's full windows in order;
/// totals are the run's planned and sent counts.
Verdict judge(const std::vector<WindowStats>& windows, uint64_t planned, uint64_t sent,
              const VerdictPolicy& policy, const std::vector<std::string>& extraReasons = {});

}  // namespace plumbline::metrics
