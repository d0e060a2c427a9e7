#pragma once
// One event loop of the mock server: its own event_base and evhttp, accepting on a
// listening socket shared with the other loops.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include <vector>

#include "core/mock/bulk_reader.h"
#include "core/mock/deadline_waiter.h"
#include "core/mock/engine_model.h"
#include "core/mock/fault_injector.h"
#include "core/mock/mock_config.h"
#include "core/mock/mock_request.h"

struct event;
struct event_base;
struct evhttp;
struct evhttp_request;
struct evhttp_connection;

namespace plumbline::mock {

class CompletionFormatter;
class EngineCompletion;
class EngineScheduler;
class FaultyBodyReply;
class MockStatsBoard;
class AcceptBackoff;
class RequestArrivals;
struct MockStats;
class TimedCompletion;

/// Serves the OpenAI-compatible endpoints, /mock/stats and /metrics on one thread.
class MockLoop {
 public:
  /// `listenFd` is a listening, non-blocking socket; the loop accepts on its own dup of it.
  /// `engine` (may be null: fixed timing) is shared by all loops and outlives them.
  MockLoop(const MockSettings& settings, int listenFd, MockStatsBoard& board, int index, EngineScheduler* engine);
  ~MockLoop();
  MockLoop(const MockLoop&) = delete;
  MockLoop& operator=(const MockLoop&) = delete;

  /// Runs the loop in the calling thread until stop().
  void run();
  /// Thread-safe: makes run() return.
  void stop();

  event_base* base() { return m_base; }
  /// When this loop's timers wake, and how first tokens meet their due instant.
  DeadlineWaiter& deadlines() { return m_deadlines; }
  /// Deletes a finished or cancelled completion (called by the completion itself).
  void retire(TimedCompletion* completion);
  /// Deletes an engine-driven completion; `cancel` also takes its sequence out of the engine.
  void retireEngine(uint64_t id, bool cancel);
  /// Answers a non-streaming request whose body carries `fault` (the caller let go of it).
  void startFaultyBody(evhttp_request* request, const CompletionFormatter& formatter, const BodyFault& fault,
                       int64_t startNs);
  /// Deletes a finished or cancelled faulty body.
  void retire(FaultyBodyReply* reply);

 private:
  void setUp(int listenFd);
  void release();
  static void onRequest(evhttp_request* request, void* self);
  static void onStop(int fd, short what, void* self);
  static void onEngine(int fd, short what, void* self);
  static void onRefusedClose(evhttp_connection* connection, void* request);
  void route(evhttp_request* request);
  void handleCompletion(evhttp_request* request, ApiKind kind);
  bool replyWithFault(evhttp_request* request, FaultClass fault);
  void refuse(evhttp_request* request);
  /// The reply's formatter, with this mock's thinking tokens.
  CompletionFormatter formatterFor(const MockRequest& parsed, int64_t tokens, uint64_t id) const;
  void startTimed(evhttp_request* request, const MockRequest& parsed, int64_t tokens, const FaultPlan& plan,
                  int64_t receivedNs);
  void startOnEngine(evhttp_request* request, const MockRequest& parsed, int64_t tokens, const FaultPlan& plan,
                     int64_t receivedNs);
  void takeEngineTokens();
  void replyAtOnce(evhttp_request* request, const MockRequest& parsed, int64_t tokens, int64_t receivedNs);
  void replyJson(evhttp_request* request, int status, const char* reason, const std::string& body);
  void replyText(evhttp_request* request, const char* contentType, const std::string& body);
  void replyError(evhttp_request* request, int status, const char* reason, const std::string& message,
                  const char* type = nullptr);
  uint64_t nextId() { return (static_cast<uint64_t>(m_index) << 48) | ++m_requestCount; }

  MockSettings m_settings;
  EngineScheduler* m_engine;
  FaultInjector m_faults;
  MockStatsBoard& m_board;
  MockStats& m_stats;
  int m_index;
  uint64_t m_requestCount = 0;
  event_base* m_base = nullptr;
  evhttp* m_http = nullptr;
  BulkReader m_bulk;  ///< reads long request bodies at once (used by m_arrivals)
  std::unique_ptr<RequestArrivals> m_arrivals;  ///< when each request reached the socket
  std::unique_ptr<AcceptBackoff> m_acceptBackoff;  ///< pauses accepting while descriptors run out
  event* m_stopEvent = nullptr;
  event* m_engineEvent = nullptr;
  int m_wakeFd = -1;
  std::unordered_map<TimedCompletion*, std::unique_ptr<TimedCompletion>> m_active;
  std::unordered_map<uint64_t, std::unique_ptr<EngineCompletion>> m_engineActive;
  std::unordered_map<FaultyBodyReply*, std::unique_ptr<FaultyBodyReply>> m_faultyBodies;
  std::vector<TokenEmission> m_emissions;
  DeadlineWaiter m_deadlines;
};

}  // namespace plumbline::mock
