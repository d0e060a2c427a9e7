#pragma once
// A response whose tokens come from the shared simulated engine: the loop feeds it the
// tokens of each engine step; it writes them as SSE chunks (one chunk per step, several
// tokens when speculative decoding accepted drafts) or, when not streaming, the whole body
// at the end. It also plays the fault plan: held first byte, mid-stream stall, trickle,
// cut, malformed chunk.
#include <cstdint>

#include "core/mock/completion_formatter.h"
#include "core/mock/fault_injector.h"

struct event;
struct evhttp_request;
struct evhttp_connection;

namespace plumbline::mock {

class MockLoop;
struct MockStats;

/// Owned by its MockLoop (keyed by sequence id), which deletes it through retireEngine().
class EngineCompletion {
 public:
  EngineCompletion(MockLoop& loop, MockStats& stats, evhttp_request* request, CompletionFormatter formatter,
                   bool stream, uint64_t id, int64_t receivedNs, const FaultPlan& plan);
  ~EngineCompletion();
  EngineCompletion(const EngineCompletion&) = delete;
  EngineCompletion& operator=(const EngineCompletion&) = delete;

  /// Sends the stream headers (unless the first byte is held) and watches the connection.
  void begin();
  /// `tokens` more tokens came out of an engine step.
  void onTokens(int64_t tokens);
  /// Forgets the request without touching it (the server is shutting down).
  void detach();

 private:
  static void onTimer(int fd, short what, void* self);
  static void onClose(evhttp_connection* connection, void* self);
  void flush();
  bool paced(int64_t nowNs, int64_t& count);
  void sendHeaders();
  void writeChunks(int64_t count);
  void endStream(bool cut);
  void sendFullBody();
  void releaseConnection();
  void armAt(int64_t deadlineNs, int64_t nowNs);

  MockLoop& m_loop;
  MockStats& m_stats;
  evhttp_request* m_request;
  CompletionFormatter m_formatter;
  bool m_stream;
  uint64_t m_id;
  FaultPlan m_plan;
  int64_t m_receivedNs;
  int64_t m_ready = 0;  ///< tokens the engine produced
  int64_t m_sent = 0;
  int64_t m_holdUntilNs;
  int64_t m_nextTrickleNs = 0;
  bool m_headersSent = false;
  bool m_stalled = false;
  event* m_timer = nullptr;
};

}  // namespace plumbline::mock
