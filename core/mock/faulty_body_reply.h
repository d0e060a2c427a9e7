#pragma once
// The non-streaming analogues of the stream faults: a body that stalls halfway, trickles
// out slowly, is cut short of its Content-Length, or is broken JSON.
#include <cstdint>
#include <string>

#include "core/mock/fault_injector.h"

struct event;
struct evbuffer;
struct evhttp_request;
struct evhttp_connection;

namespace plumbline::mock {

class CompletionFormatter;
class MockLoop;
struct MockStats;

/// One faulted non-streaming reply in flight. Owned by its MockLoop, which deletes it
/// through retire() once the last piece went out or the connection closed.
class FaultyBodyReply {
 public:
  /// `startNs`: when the request arrived (for the latency histograms).
  FaultyBodyReply(MockLoop& loop, MockStats& stats, evhttp_request* request, const CompletionFormatter& formatter,
                  const BodyFault& fault, int64_t startNs);
  ~FaultyBodyReply();
  FaultyBodyReply(const FaultyBodyReply&) = delete;
  FaultyBodyReply& operator=(const FaultyBodyReply&) = delete;

  /// Sends the headers (announcing the whole body's length) and the first piece.
  void begin();
  /// Forgets the request without touching it (the server is shutting down).
  void detach();

 private:
  static void onTimer(int fd, short what, void* self);
  static void onClose(evhttp_connection* connection, void* self);
  static void onCutFlushed(evhttp_connection* connection, void* self);
  void sendNext();
  void releaseConnection();

  MockLoop& m_loop;
  MockStats& m_stats;
  evhttp_request* m_request;
  std::string m_body;
  BodyFault m_fault;
  int64_t m_startNs;
  int64_t m_tokens;
  int64_t m_piece = 0;
  event* m_timer = nullptr;
};

}  // namespace plumbline::mock
