#pragma once
// A response whose tokens are due over time: driven by one evtimer on its loop's
// event_base, cancelled when the client goes away.
#include <algorithm>
#include <cstdint>

#include "core/mock/completion_formatter.h"
#include "core/mock/fault_injector.h"
#include "core/util/clock.h"

struct event;
struct evhttp_request;
struct evhttp_connection;

namespace plumbline::mock {

class MockLoop;
struct MockStats;

/// When tokens are due: token i at start + ttft + i * itl (monotonic ns), plus stallNs
/// for every token from index stallAt on (a mid-stream stall). A stream's first token is an
/// event of its own; the rest go `tokensPerEvent` to an event (a server that streams every N
/// tokens), each event when its last token is due.
struct TokenSchedule {
  int64_t startNs = 0;
  int64_t ttftNs = 0;
  int64_t itlNs = 0;
  int64_t stallAt = FaultPlan::kNever;
  int64_t stallNs = 0;
  int64_t tokensPerEvent = 1;

  int64_t deadline(int64_t index) const {
    return startNs + ttftNs + index * itlNs + (index >= stallAt ? stallNs : 0);
  }
  /// How many of `total` tokens are due at `nowNs`.
  int64_t dueAt(int64_t nowNs, int64_t total) const;
  /// One past the last token of the event that begins at token `from` (of `total`).
  int64_t eventEnd(int64_t from, int64_t total) const {
    return std::min(total, from == 0 ? 1 : from + std::max<int64_t>(1, tokensPerEvent));
  }
  /// Of `due` tokens due, how many whole events hold: those that can be written.
  int64_t writable(int64_t due, int64_t total) const {
    if (tokensPerEvent <= 1 || due == 0 || due >= total) return due;
    return 1 + (due - 1) / tokensPerEvent * tokensPerEvent;
  }
};

/// One timed response in flight. Owned by its MockLoop, which deletes it through
/// retire() once it finished or its connection closed.
class TimedCompletion {
 public:
  /// `plan`: cutAfter, malformedAt and a held first byte are played here; stalls and
  /// trickle are already in `schedule`.
  TimedCompletion(MockLoop& loop, MockStats& stats, evhttp_request* request, CompletionFormatter formatter,
                  bool stream, TokenSchedule schedule, const FaultPlan& plan = {});
  ~TimedCompletion();
  TimedCompletion(const TimedCompletion&) = delete;
  TimedCompletion& operator=(const TimedCompletion&) = delete;

  /// Sends the stream headers (if streaming) and arms the first timer.
  void begin();
  /// Forgets the request without touching it (the server is shutting down).
  void detach();

 private:
  static void onTimer(int fd, short what, void* self);
  static void onClose(evhttp_connection* connection, void* self);
  void step();
  void sendStreamChunks(int64_t due);
  void sendHeaders();
  void sendFullBody();
  void releaseConnection();
  void armTimer(int64_t nowNs);
  /// The index of the token (or, non-streaming, the whole body) the timer waits for.
  int64_t nextIndex() const;
  /// The first write of a stream is the one a client's TTFT measures: it is spun for.
  bool firstWritePending() const { return m_stream && m_sent == 0; }
  void recordLateness(int64_t from, int64_t to, int64_t writtenNs);

  MockLoop& m_loop;
  MockStats& m_stats;
  evhttp_request* m_request;
  CompletionFormatter m_formatter;
  bool m_stream;
  TokenSchedule m_schedule;
  FaultPlan m_plan;
  int64_t m_sent = 0;
  bool m_headersSent = false;
  event* m_timer = nullptr;
  int64_t m_wakeAskedNs = -1;  ///< the instant the pending timer was asked to wake at; -1: none
};

using util::monotonicNs;  // CLOCK_MONOTONIC ns, shared with the engine

}  // namespace plumbline::mock
