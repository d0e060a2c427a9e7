#pragma once
// How much the shared VMs' pauses may delay sends in the end-to-end tests.

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

/// Whether a run whose counts (not its timing) a test checks exited as it may: 0 (kept_up), and
/// in sanitized builds also 3 (harness_limited), where the suite runs four tests at a time on
/// two CPUs and a starved run rightly says it fell behind.
constexpr bool countsRunExitedAsItMay(int exitCode) {
  return exitCode == 0 || (!kTimingChecked && exitCode == 3);
}

}  // namespace plumbline::test
