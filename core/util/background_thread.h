#pragma once

namespace plumbline::util {

/// Marks the calling thread as a run's background helper (the SQLite writer, the live
/// telemetry server): names it for top and perf, and schedules it SCHED_BATCH, the policy the
/// kernel never lets preempt a running thread when it wakes up. A worker spinning towards a
/// planned send on the same CPU then keeps it until its slice ends, instead of being pushed
/// off for a slice (milliseconds of send lag) by a commit or a telemetry tick; the helper
/// keeps its share of CPU time. Unprivileged; returns false where the policy was refused
/// (the thread then runs as before).
bool markBackgroundThread(const char* name);

/// The same policy for the calling thread, without renaming it, for as long as this object
/// lives; the thread's previous policy comes back after. For the coordinator's main thread
/// during a run: start it once every child process exists (children inherit the policy).
class BackgroundScheduling {
 public:
  BackgroundScheduling();
  ~BackgroundScheduling();
  BackgroundScheduling(const BackgroundScheduling&) = delete;
  BackgroundScheduling& operator=(const BackgroundScheduling&) = delete;
  bool active() const { return m_active; }

 private:
  int m_previousPolicy = 0;
  int m_previousPriority = 0;
  bool m_active = false;
};

}  // namespace plumbline::util
