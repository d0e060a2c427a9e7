#pragma once
// The wall clock and the monotonic clock read as one instant. Two clock_gettime calls in a row
// are not one instant: a thread preempted between them (a loaded machine, a sanitized build)
// sees the second clock late by as long as it was held up, and anything converted from one
// clock to the other with that pair is off by as much (a kernel arrival stamp then lands
// milliseconds early, a TTFT shorter than the server's).
#include <cstdint>

namespace plumbline::util {

struct ClockPair {
  int64_t realNs = 0;    ///< CLOCK_REALTIME
  int64_t monoNs = 0;    ///< CLOCK_MONOTONIC at the same instant, to within windowNs / 2
  int64_t windowNs = 0;  ///< the two monotonic reads around the wall-clock read were this far apart
};

/// Reads the wall clock between two monotonic reads and takes the midpoint of those; of up to
/// 4 tries, the one whose reads were closest together (the first within 20 µs is taken at once).
ClockPair readClockPair();

}  // namespace plumbline::util
