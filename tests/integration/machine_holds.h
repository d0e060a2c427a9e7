#pragma once
// Telling a run the machine held up from one the harness could not keep up with.

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/integration/timing_budget.h"

namespace plumbline::test {

/// Attempts a keep-up test makes while the machine alone holds the harness up (below). One in
/// sanitized builds, which judge correctness, not timing, and accept such a run at once.
constexpr int kKeepUpAttempts = kTimingChecked ? 3 : 1;

/// True when `summary` is harness_limited and every reason is late sends while the workers were
/// idle: the harness saw the machine hold it up (host pauses, CPU quota, other load) and said so.
/// Reasons that blame the harness (CPU saturated, sends short of the plan, lag while busy, a
/// worker died) make this false.
inline bool heldUpByTheMachineOnly(const nlohmann::json& summary) {
  if (!summary.is_object() || summary.value("verdict", "") != "harness_limited") return false;
  const auto reasons = summary.find("verdict_reasons");
  if (reasons == summary.end() || !reasons->is_array() || reasons->empty()) return false;
  for (const nlohmann::json& reason : *reasons) {
    if (!reason.is_string()) return false;
    const std::string text = reason.get<std::string>();
    if (text.find("send lag p99") == std::string::npos ||
        text.find("while workers were mostly idle (the machine held them up") == std::string::npos)
      return false;
  }
  return true;
}

/// Calls `attempt` (which runs Plumbline and returns something with a `summary` json member)
/// until its run is not one the machine alone held up, at most kKeepUpAttempts times, printing
/// each held-up attempt's reasons; returns the last attempt. A keep-up claim is about the
/// harness: a run that fell behind only because the machine stopped it (and said so) is
/// repeated rather than failed, and one that fell behind for any other reason is not repeated.
template <class Attempt>
auto untilNotHeldUpByTheMachine(Attempt attempt) {
  auto result = attempt();
  for (int n = 1; n < kKeepUpAttempts && heldUpByTheMachineOnly(result.summary); ++n) {
    std::printf(
        "[ held up ] attempt %d of %d: harness_limited by the machine alone; once more: %s\n", n,
        kKeepUpAttempts, result.summary["verdict_reasons"].dump().c_str());
    result = attempt();
  }
  return result;
}

}  // namespace plumbline::test
