#pragma once
// Wording the coordinator's sources share (coordinator.cpp, coordinator_notices.cpp,
// coordinator_worker_loss.cpp).
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace plumbline::engine::coordinator_text {

/// The note's tail when a dead worker's sessions went to others (rewritten should they die too).
inline constexpr std::string_view kHandedToSurvivors =
    " sessions not yet due were handed to the surviving workers";

/// "3.2 s": run times as reasons and notes give them.
inline std::string fmtSeconds(int64_t ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f s", static_cast<double>(ns) / 1e9);
  return b;
}

/// "950 ms", "12.5 ms", "1.25 ms": lateness as notices give it.
inline std::string fmtMs(int64_t ns) {
  const double ms = static_cast<double>(ns) / 1e6;
  char b[32];
  std::snprintf(b, sizeof b, ms >= 100 ? "%.0f ms" : ms >= 10 ? "%.1f ms" : "%.2f ms", ms);
  return b;
}

}  // namespace plumbline::engine::coordinator_text
