#pragma once
// What the mock's listener does when accept() fails: out of descriptors (EMFILE, ENFILE) or
// kernel memory, the pending connection stays in the backlog and the listening socket stays
// readable, so retrying at once spins a core (libevent's default logs a warning per retry,
// millions a second). Instead the listener is paused for a short while and resumed, and one
// line per second at most says so.

#include <cstdint>

struct event;
struct event_base;
struct evconnlistener;

namespace plumbline::mock {

struct AcceptShortage;

class AcceptBackoff {
 public:
  static constexpr int64_t kPauseNs = 10'000'000;

  /// Watches `listener` (owned by evhttp, which outlives this object's use of it); records each
  /// pause in `shared` too when the run that started this mock gave one.
  AcceptBackoff(event_base* base, evconnlistener* listener, int loopIndex,
                AcceptShortage* shared = nullptr);
  ~AcceptBackoff();
  AcceptBackoff(const AcceptBackoff&) = delete;
  AcceptBackoff& operator=(const AcceptBackoff&) = delete;

  /// Pauses taken so far (each one kPauseNs long).
  uint64_t pauses() const { return m_pauses; }

 private:
  static void onError(evconnlistener* listener, void* self);
  static void onResume(int fd, short what, void* self);

  evconnlistener* m_listener;
  event* m_resume = nullptr;
  int m_loopIndex;
  AcceptShortage* m_shared;
  uint64_t m_pauses = 0;
  int64_t m_lastReportNs = -1;
};

}  // namespace plumbline::mock
