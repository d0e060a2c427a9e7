#include "core/mock/engine_completion.h"

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>

#include <algorithm>
#include <string>

#include "core/mock/mock_loop.h"
#include "core/mock/full_body_reply.h"
#include "core/mock/mock_stats.h"
#include "core/mock/timed_completion.h"

namespace plumbline::mock {

EngineCompletion::EngineCompletion(MockLoop& loop, MockStats& stats, evhttp_request* request,
                                   CompletionFormatter formatter, bool stream, uint64_t id, int64_t receivedNs,
                                   const FaultPlan& plan)
    : m_loop(loop),
      m_stats(stats),
      m_request(request),
      m_formatter(std::move(formatter)),
      m_stream(stream),
      m_id(id),
      m_plan(plan),
      m_receivedNs(receivedNs),
      m_holdUntilNs(receivedNs + plan.holdFirstByteNs) {
  m_timer = evtimer_new(loop.base(), &EngineCompletion::onTimer, this);
}

EngineCompletion::~EngineCompletion() {
  if (m_timer != nullptr) event_free(m_timer);
}

void EngineCompletion::begin() {
  evhttp_connection_set_closecb(evhttp_request_get_connection(m_request), &EngineCompletion::onClose, this);
  flush();
}

void EngineCompletion::detach() {
  releaseConnection();
  m_request = nullptr;
}

void EngineCompletion::onTokens(int64_t tokens) {
  m_ready = std::min(m_ready + tokens, m_formatter.completionTokens());
  flush();
}

void EngineCompletion::onTimer(int /*fd*/, short /*what*/, void* self) { static_cast<EngineCompletion*>(self)->flush(); }

void EngineCompletion::onClose(evhttp_connection* /*connection*/, void* self) {
  auto* completion = static_cast<EngineCompletion*>(self);
  // As in TimedCompletion: a request the connection let go of is ours to free.
  if (evhttp_request_get_connection(completion->m_request) == nullptr) evhttp_request_free(completion->m_request);
  completion->m_request = nullptr;
  completion->m_loop.retireEngine(completion->m_id, true);
}

void EngineCompletion::armAt(int64_t deadlineNs, int64_t nowNs) {
  const int64_t waitUs = (std::max<int64_t>(0, deadlineNs - nowNs) + 999) / 1000;
  const timeval tv{static_cast<time_t>(waitUs / 1'000'000), static_cast<suseconds_t>(waitUs % 1'000'000)};
  evtimer_add(m_timer, &tv);
}

void EngineCompletion::flush() {
  const int64_t now = monotonicNs();
  if (now < m_holdUntilNs) return armAt(m_holdUntilNs, now);
  const int64_t total = m_formatter.completionTokens();
  if (!m_stream) {
    if (m_ready >= total) sendFullBody();
    return;
  }
  if (!m_headersSent) sendHeaders();
  while (m_sent < m_ready && m_sent < m_plan.cutAfter) {
    int64_t count = m_ready - m_sent;
    if (!paced(now, count)) return;
    writeChunks(count);
  }
  if (m_sent >= m_plan.cutAfter) return endStream(true);
  if (m_sent >= total) endStream(false);
}

/// Applies stall and trickle to the next write: false (timer armed) when it must wait.
bool EngineCompletion::paced(int64_t nowNs, int64_t& count) {
  if (m_sent >= m_plan.stallAt && !m_stalled) {
    m_stalled = true;
    m_holdUntilNs = nowNs + m_plan.stallNs;
    armAt(m_holdUntilNs, nowNs);
    return false;
  }
  if (m_plan.stallAt > m_sent) count = std::min(count, m_plan.stallAt - m_sent);
  count = std::min(count, m_plan.cutAfter - m_sent);
  if (m_plan.trickleItlNs > 0) {
    if (nowNs < m_nextTrickleNs) {
      armAt(m_nextTrickleNs, nowNs);
      return false;
    }
    count = 1;
    m_nextTrickleNs = nowNs + m_plan.trickleItlNs;
  }
  return true;
}

void EngineCompletion::sendHeaders() {
  evkeyvalq* headers = evhttp_request_get_output_headers(m_request);
  evhttp_add_header(headers, "Content-Type", "text/event-stream");
  evhttp_add_header(headers, "Cache-Control", "no-cache");
  evhttp_send_reply_start(m_request, 200, "OK");
  m_headersSent = true;
}

void EngineCompletion::writeChunks(int64_t count) {
  thread_local std::string text;
  text.clear();
  if (m_plan.malformedAt >= m_sent && m_plan.malformedAt < m_sent + count) {
    for (int64_t i = m_sent; i < m_sent + count; ++i) {
      if (i == m_plan.malformedAt) m_formatter.appendMalformedChunk(text);
      else m_formatter.appendTokenChunk(text, i, 1);
    }
  } else {
    m_formatter.appendTokenChunk(text, m_sent, count);
  }
  evbuffer* out = evhttp_request_get_output_buffer(m_request);
  evbuffer_add(out, text.data(), text.size());
  MockStats::bump(m_stats.tokensSent, static_cast<uint64_t>(count));
  if (m_sent == 0) m_stats.timeToFirstToken.record(monotonicNs() - m_receivedNs);
  m_sent += count;
  evhttp_send_reply_chunk(m_request, out);
}

void EngineCompletion::endStream(bool cut) {
  thread_local std::string text;
  text.clear();
  if (!cut) m_formatter.appendStreamEnd(text);
  evbuffer* out = evhttp_request_get_output_buffer(m_request);
  evbuffer_add(out, text.data(), text.size());
  releaseConnection();  // before the end: the reply may complete synchronously
  if (!text.empty()) evhttp_send_reply_chunk(m_request, out);
  MockStats::bump(m_stats.requestsCompleted);
  m_stats.e2eLatency.record(monotonicNs() - m_receivedNs);
  evhttp_send_reply_end(m_request);
  m_request = nullptr;
  m_loop.retireEngine(m_id, cut);  // a cut stream's sequence is still in the engine
}

void EngineCompletion::sendFullBody() {
  releaseConnection();
  if (m_plan.body.active()) {
    m_loop.startFaultyBody(m_request, m_formatter, m_plan.body, m_receivedNs);
  } else {
    sendFullBodyReply(m_request, m_formatter, m_stats, monotonicNs() - m_receivedNs);
  }
  m_request = nullptr;
  m_loop.retireEngine(m_id, false);
}

void EngineCompletion::releaseConnection() {
  if (m_request == nullptr) return;
  evhttp_connection* connection = evhttp_request_get_connection(m_request);
  if (connection != nullptr) evhttp_connection_set_closecb(connection, nullptr, nullptr);
}

}  // namespace plumbline::mock
