#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/latency_histogram.h"
#include "core/store/window_row.h"

namespace plumbline::compare {

/// One load level of a run: what was asked, what was achieved and the latency it cost.
struct LoadLatencyPoint {
  std::string label;           ///< "stage 2 (40/s)", "ramp 3 part 1/4", "60-70 s"
  double startS = 0, endS = 0;
  double requestedRps = 0;     ///< planned requests per second in the group's windows
  double completedRps = 0;     ///< completed requests per second: the throughput
  /// None where no request of the group measured it (no TTFT without streaming).
  std::optional<double> ttftP50Ms, ttftP99Ms, itlP99Ms, e2eP99Ms;
};

/// Per-window histograms of one run: window index → histogram, for ttft, itl and e2e.
struct WindowLatency {
  std::vector<std::pair<int64_t, metrics::LatencyHistogram>> ttft, itl, e2e;
};

/// A sweep: more than one stage, or a ramp, in the spec's load.stages.
bool isSweep(const nlohmann::json& spec);

/// Groups the run's windows by stage (a ramp split into parts of about kRampPartS seconds;
/// a run without stages into groups of kRampPartS), merges each group's histograms and
/// reports one point per group; a group where nothing completed has no latency and no point.
/// The first window of a constant stage with at least three
/// windows is left out: it still holds the previous stage's requests finishing.
std::vector<LoadLatencyPoint> loadLatencyPoints(const nlohmann::json& spec,
                                                const std::vector<store::WindowRow>& windows,
                                                const WindowLatency& latency);
inline constexpr double kRampPartS = 10;

}  // namespace plumbline::compare
