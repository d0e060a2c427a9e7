#pragma once
// One event loop of the mock server: its own event_base and evhttp, accepting on a
// listening socket shared with the other loops.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/mock/mock_config.h"
#include "core/mock/mock_request.h"

struct event;
struct event_base;
struct evhttp;
struct evhttp_request;

namespace plumbline::mock {

class MockStatsBoard;
struct MockStats;
class TimedCompletion;

/// Serves the OpenAI-compatible endpoints and /mock/stats on one thread.
class MockLoop {
 public:
  /// `listenFd` is a listening, non-blocking socket; the loop accepts on its own dup of it.
  MockLoop(const MockSettings& settings, int listenFd, MockStatsBoard& board, int index);
  ~MockLoop();
  MockLoop(const MockLoop&) = delete;
  MockLoop& operator=(const MockLoop&) = delete;

  /// Runs the loop in the calling thread until stop().
  void run();
  /// Thread-safe: makes run() return.
  void stop();

  event_base* base() { return m_base; }
  /// Deletes a finished or cancelled completion (called by the completion itself).
  void retire(TimedCompletion* completion);

 private:
  void setUp(int listenFd);
  void release();
  static void onRequest(evhttp_request* request, void* self);
  static void onStop(int fd, short what, void* self);
  void route(evhttp_request* request);
  void handleCompletion(evhttp_request* request, ApiKind kind);
  void replyAtOnce(evhttp_request* request, const MockRequest& parsed, int64_t tokens);
  void replyJson(evhttp_request* request, int status, const char* reason, const std::string& body);
  void replyError(evhttp_request* request, int status, const char* reason, const std::string& message);
  uint64_t nextId() { return (static_cast<uint64_t>(m_index) << 48) | ++m_requestCount; }

  MockSettings m_settings;
  MockStatsBoard& m_board;
  MockStats& m_stats;
  int m_index;
  uint64_t m_requestCount = 0;
  event_base* m_base = nullptr;
  evhttp* m_http = nullptr;
  event* m_stopEvent = nullptr;
  int m_wakeFd = -1;
  std::unordered_map<TimedCompletion*, std::unique_ptr<TimedCompletion>> m_active;
};

}  // namespace plumbline::mock
