#pragma once
#include <cstdint>
#include <sys/time.h>

#include <ctime>

namespace plumbline::util {

/// CLOCK_MONOTONIC in nanoseconds. Every timestamp of a run is this minus the run's t0.
inline int64_t monotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// Wall-clock time in nanoseconds since the Unix epoch (stored once per run for t0).
inline int64_t wallClockNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// A duration in ns as the timeval libevent takes; a negative one is zero (fire at once).
inline timeval toTimeval(int64_t ns) {
  if (ns < 0) ns = 0;
  return timeval{static_cast<time_t>(ns / 1'000'000'000), static_cast<suseconds_t>((ns % 1'000'000'000) / 1000)};
}

/// CPU time (user + system) used by this process, in nanoseconds.
inline int64_t processCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace plumbline::util
