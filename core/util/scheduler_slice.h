#pragma once
// The EEVDF scheduler slice a thread asks for (Linux 6.12 and later: sched_setattr with
// SCHED_OTHER and sched_runtime; unprivileged, 0.1-100 ms). A task with a shorter slice than the
// others on its CPU gets an earlier deadline, so when it wakes it takes the CPU at once instead
// of waiting for the running task's slice to end; it also gives the CPU back sooner. Kernels
// before 6.12 have no per-task slice: there the request changes nothing (or is refused).
#include <cstdint>
#include <string>

namespace plumbline::util {

inline constexpr int64_t kMinSchedulerSliceNs = 100'000;  ///< the kernel's bounds
inline constexpr int64_t kMaxSchedulerSliceNs = 100'000'000;

/// Asks for a `sliceNs` slice for the calling thread under the normal policy (0: the kernel's
/// default again). Returns "" or why the kernel refused.
std::string setSchedulerSlice(int64_t sliceNs);

/// The slice thread `tid` runs with (the kernel's default where it asked for none; 0 where the
/// kernel reports no slice; -1 if it cannot be read).
int64_t schedulerSliceOf(int tid);

}  // namespace plumbline::util
