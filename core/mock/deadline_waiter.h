#pragma once
// How a mock loop meets a token's due instant to within a few µs: its timer is armed a margin
// early (learnt from how late the loop's own timers wake, as the worker does for sends) and
// the rest is busy-waited. Only the first write of a response waits this way (the TTFT a
// client measures); later tokens keep plain timers, so the spin costs one margin per request.
#include <cstdint>

#include "core/engine/spin_margin.h"

namespace plumbline::mock {

/// One loop's policy for precise deadlines. Pure: the caller passes the clock.
class DeadlineWaiter {
 public:
  DeadlineWaiter();
  explicit DeadlineWaiter(engine::SpinMargin margin) : m_margin(std::move(margin)) {}

  /// When to arm the timer for a deadline: `spin` deadlines a margin early, others on time.
  int64_t wakeAt(int64_t deadlineNs, bool spin) const { return spin ? deadlineNs - m_margin.marginNs() : deadlineNs; }
  /// A timer asked for `askedNs` woke at `nowNs`: teaches the margin.
  void noteWake(int64_t askedNs, int64_t nowNs) { m_margin.noteLateness(nowNs - askedNs); }
  /// Whether a wake-up at `nowNs` before `deadlineNs` should busy-wait for it rather than sleep
  /// again: the deadline is within the margin (a timer would wake too late for it).
  bool shouldSpin(int64_t nowNs, int64_t deadlineNs) const {
    return nowNs < deadlineNs && deadlineNs - nowNs <= m_margin.marginNs();
  }
  int64_t marginNs() const { return m_margin.marginNs(); }

 private:
  engine::SpinMargin m_margin;
};

/// Busy-waits until `clock()` reaches `deadlineNs`; returns the clock's last reading.
template <typename Clock>
int64_t spinUntil(int64_t deadlineNs, Clock&& clock) {
  int64_t now = clock();
  while (now < deadlineNs) now = clock();
  return now;
}

}  // namespace plumbline::mock
