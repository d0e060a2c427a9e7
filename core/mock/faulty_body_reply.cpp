#include "core/mock/faulty_body_reply.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <sys/socket.h>

#include <algorithm>

#include "core/mock/completion_formatter.h"
#include "core/mock/mock_loop.h"
#include "core/mock/mock_stats.h"
#include "core/util/clock.h"

namespace plumbline::mock {

FaultyBodyReply::FaultyBodyReply(MockLoop& loop, MockStats& stats, evhttp_request* request,
                                 const CompletionFormatter& formatter, const BodyFault& fault, int64_t startNs)
    : m_loop(loop),
      m_stats(stats),
      m_request(request),
      m_fault(fault),
      m_startNs(startNs),
      m_tokens(formatter.completionTokens()) {
  formatter.appendFullBody(m_body);
  // Half a JSON object: well-formed HTTP, broken JSON.
  if (m_fault.malformed) m_body.resize(m_body.size() / 2);
  m_fault.pieces = std::max<int64_t>(1, std::min<int64_t>(m_fault.pieces, static_cast<int64_t>(m_body.size())));
  m_timer = evtimer_new(loop.base(), &FaultyBodyReply::onTimer, this);
}

FaultyBodyReply::~FaultyBodyReply() {
  if (m_timer != nullptr) event_free(m_timer);
}

void FaultyBodyReply::begin() {
  evhttp_connection_set_closecb(evhttp_request_get_connection(m_request), &FaultyBodyReply::onClose, this);
  evkeyvalq* headers = evhttp_request_get_output_headers(m_request);
  evhttp_add_header(headers, "Content-Type", "application/json");
  // With a Content-Length libevent sends the body as is, not chunked: a cut is a short body.
  evhttp_add_header(headers, "Content-Length", std::to_string(m_body.size()).c_str());
  evhttp_send_reply_start(m_request, 200, "OK");
  m_stats.timeToFirstToken.record(util::monotonicNs() - m_startNs);
  sendNext();
}

void FaultyBodyReply::detach() {
  releaseConnection();
  m_request = nullptr;
}

void FaultyBodyReply::onTimer(int /*fd*/, short /*what*/, void* self) { static_cast<FaultyBodyReply*>(self)->sendNext(); }

void FaultyBodyReply::onClose(evhttp_connection* /*connection*/, void* self) {
  auto* reply = static_cast<FaultyBodyReply*>(self);
  // As in TimedCompletion: a request the connection let go of is ours to free.
  if (evhttp_request_get_connection(reply->m_request) == nullptr) evhttp_request_free(reply->m_request);
  reply->m_request = nullptr;
  reply->m_loop.retire(reply);
}

// The first piece has reached the socket: close it both ways, as a crashing server would.
// libevent then sees the connection close and calls onClose, which frees the request.
void FaultyBodyReply::onCutFlushed(evhttp_connection* connection, void* /*self*/) {
  shutdown(bufferevent_getfd(evhttp_connection_get_bufferevent(connection)), SHUT_RDWR);
}

void FaultyBodyReply::releaseConnection() {
  if (m_request == nullptr) return;
  evhttp_connection* connection = evhttp_request_get_connection(m_request);
  if (connection != nullptr) evhttp_connection_set_closecb(connection, nullptr, nullptr);
}

void FaultyBodyReply::sendNext() {
  const auto size = static_cast<int64_t>(m_body.size());
  const int64_t from = size * m_piece / m_fault.pieces;
  const int64_t to = size * (m_piece + 1) / m_fault.pieces;
  ++m_piece;
  evbuffer* out = evhttp_request_get_output_buffer(m_request);
  evbuffer_add(out, m_body.data() + from, static_cast<size_t>(to - from));
  const bool cut = m_fault.cutAfterFirst;
  const bool last = cut || m_piece >= m_fault.pieces;
  if (last) {
    MockStats::bump(m_stats.requestsCompleted);
    if (!cut && !m_fault.malformed) MockStats::bump(m_stats.tokensSent, static_cast<uint64_t>(m_tokens));
    m_stats.e2eLatency.record(util::monotonicNs() - m_startNs);
  }
  if (cut) {
    // The connection's close (after the flush) frees the request and retires this reply.
    evhttp_send_reply_chunk_with_cb(m_request, out, &FaultyBodyReply::onCutFlushed, this);
    return;
  }
  evhttp_send_reply_chunk(m_request, out);
  if (!last) {
    const int64_t waitUs = (m_fault.gapNs + 999) / 1000;
    const timeval tv{static_cast<time_t>(waitUs / 1'000'000), static_cast<suseconds_t>(waitUs % 1'000'000)};
    evtimer_add(m_timer, &tv);
    return;
  }
  releaseConnection();  // before the end: the reply may complete synchronously
  evhttp_send_reply_end(m_request);
  m_request = nullptr;
  m_loop.retire(this);
}

}  // namespace plumbline::mock
