#pragma once
// How much the shared VMs' pauses may delay sends in the end-to-end tests.
#include <nlohmann/json.hpp>
#include <string>

namespace plumbline::test {

// These VMs pause every vCPU now and then (a bare spinning loop sees ~3 gaps over 1 ms, up to
// ~11 ms, in 10 s: bench/machine_pauses_probe). A pause delays every send due during it, which the
// verdict rightly counts. The tests are about the harness, so they allow a pause budget
// and pin the harness's own precision with send-lag percentiles instead.
constexpr double kMachinePauseBudgetMs = 30.0;

#ifdef PLUMBLINE_SANITIZED_BUILD
constexpr bool kTimingChecked = false;  // ASan/UBSan Debug: correctness only, not precision
#else
constexpr bool kTimingChecked = true;
#endif

/// Whether a verdict reason blames the machine holding a worker up, not the harness: requests in
/// flight while a worker's event loop was held ("timing: ..."), or sends late while the workers
/// were mostly idle, with no cap or lost worker in the way ("... (the machine held them up...").
inline bool isMachineHold(const std::string& reason) {
  return reason.rfind("timing: ", 0) == 0 ||
         reason.find("while workers were mostly idle (the machine held them up") !=
             std::string::npos;
}

/// Whether a run whose counts (not its timing) a test checks exited as it may: 0 (kept_up), or 3
/// (harness_limited) when its summary blames nothing but the machine (isMachineHold). A CI
/// machine held a worker's loop 81.7 ms while the ASan build ran beside the suite; the run
/// rightly said so, and its counts were whole. In sanitized builds, where the suite runs four
/// tests at a time on two CPUs and a starved run rightly says it fell behind, 3 for any reason.
inline bool countsRunExitedAsItMay(int exitCode, const nlohmann::json& summary) {
  if (exitCode == 0) return true;
  if (exitCode != 3) return false;
  if (!kTimingChecked) return true;
  const nlohmann::json* reasons = summary.is_object() && summary.contains("verdict_reasons")
                                      ? &summary["verdict_reasons"]
                                      : nullptr;
  if (!reasons || !reasons->is_array() || reasons->empty()) return false;
  for (const nlohmann::json& r : *reasons)
    if (!r.is_string() || !isMachineHold(r.get<std::string>())) return false;
  return true;
}

}  // namespace plumbline::test
