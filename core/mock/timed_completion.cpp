#include "core/mock/timed_completion.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>

#include <algorithm>
#include <ctime>
#include <string>

#include "core/mock/mock_loop.h"
#include "core/mock/full_body_reply.h"
#include "core/mock/mock_stats.h"

namespace plumbline::mock {

namespace {
/// Tokens due at `nowNs` of `limit` tokens due from `firstNs` on, `itlNs` apart.
int64_t countDue(int64_t nowNs, int64_t firstNs, int64_t itlNs, int64_t limit) {
  if (nowNs < firstNs || limit <= 0) return 0;
  if (itlNs <= 0) return limit;
  return std::min(limit, 1 + (nowNs - firstNs) / itlNs);
}

/// Writes what evhttp queued for `request` to its socket now. A bufferevent writes only when
/// the loop next reports the socket writable, after every other callback of this turn: tens
/// of µs that would count as the mock's lateness. Safe for chunks (evhttp has no callback on
/// their write). When everything went, the write watch evhttp just enabled is dropped again in
/// the same turn, so the loop neither changes its epoll registration twice per token nor wakes
/// to find the buffer empty; what did not go (a full socket buffer) is left to the bufferevent.
void flushNow(evhttp_request* request) {
  evhttp_connection* connection = evhttp_request_get_connection(request);
  bufferevent* bev = connection != nullptr ? evhttp_connection_get_bufferevent(connection) : nullptr;
  if (bev == nullptr) return;
  evbuffer* out = bufferevent_get_output(bev);
  evbuffer_write(out, bufferevent_getfd(bev));  // errors: the bufferevent sees them too
  if (evbuffer_get_length(out) == 0) bufferevent_disable(bev, EV_WRITE);
}
}  // namespace

int64_t TokenSchedule::dueAt(int64_t nowNs, int64_t total) const {
  const int64_t beforeStall = std::min(total, stallAt);
  const int64_t due = countDue(nowNs, startNs + ttftNs, itlNs, beforeStall);
  if (due < beforeStall || beforeStall == total) return due;
  return due + countDue(nowNs, deadline(stallAt), itlNs, total - stallAt);
}

TimedCompletion::TimedCompletion(MockLoop& loop, MockStats& stats, evhttp_request* request,
                                 CompletionFormatter formatter, bool stream, TokenSchedule schedule,
                                 const FaultPlan& plan)
    : m_loop(loop),
      m_stats(stats),
      m_request(request),
      m_formatter(std::move(formatter)),
      m_stream(stream),
      m_schedule(schedule),
      m_plan(plan) {
  m_timer = evtimer_new(loop.base(), &TimedCompletion::onTimer, this);
  // Tokens go before new requests are read (evhttp's reads run at the base's lower priority
  // when RequestArrivals gave it two): a due token that came up in the same turn as another
  // request's bytes would otherwise wait for that request to be read and parsed. With requests
  // timed from their arrival, a constant rate whose gap divides the TTFT lines each first token
  // up with a later request's arrival exactly.
  if (m_timer != nullptr) event_priority_set(m_timer, 0);
}

TimedCompletion::~TimedCompletion() {
  if (m_timer != nullptr) event_free(m_timer);
}

void TimedCompletion::begin() {
  evhttp_connection_set_closecb(evhttp_request_get_connection(m_request), &TimedCompletion::onClose, this);
  if (m_stream && m_plan.holdFirstByteNs == 0) sendHeaders();
  armTimer(monotonicNs());
}

void TimedCompletion::sendHeaders() {
  evkeyvalq* headers = evhttp_request_get_output_headers(m_request);
  evhttp_add_header(headers, "Content-Type", "text/event-stream");
  evhttp_add_header(headers, "Cache-Control", "no-cache");
  evhttp_send_reply_start(m_request, 200, "OK");
  m_headersSent = true;
}

void TimedCompletion::detach() {
  releaseConnection();
  m_request = nullptr;
}

int64_t TimedCompletion::nextIndex() const {
  if (!m_stream) return std::max<int64_t>(0, m_formatter.completionTokens() - 1);
  const int64_t total = std::min(m_formatter.completionTokens(), m_plan.cutAfter);
  return std::max<int64_t>(0, m_schedule.eventEnd(m_sent, total) - 1);  // its event's last token
}

void TimedCompletion::armTimer(int64_t nowNs) {
  const int64_t wakeAt = m_loop.deadlines().wakeAt(m_schedule.deadline(nextIndex()), firstWritePending());
  const int64_t waitNs = std::max<int64_t>(0, wakeAt - nowNs);
  const int64_t waitUs = (waitNs + 999) / 1000;  // round up: a plain timer never wakes before the deadline
  const timeval tv{static_cast<time_t>(waitUs / 1'000'000), static_cast<suseconds_t>(waitUs % 1'000'000)};
  // libevent adds the wait to the time it cached at the start of this loop turn: refresh it,
  // or the timer fires early by however long the turn has run (then sleeps a second time).
  event_base_update_cache_time(m_loop.base());
  evtimer_add(m_timer, &tv);
  m_wakeAskedNs = waitNs > 0 ? nowNs + waitUs * 1000 : -1;  // only a sleeping timer measures wake-ups
}

void TimedCompletion::onTimer(int /*fd*/, short /*what*/, void* self) { static_cast<TimedCompletion*>(self)->step(); }

void TimedCompletion::onClose(evhttp_connection* /*connection*/, void* self) {
  auto* completion = static_cast<TimedCompletion*>(self);
  // A request the connection let go of (client vanished mid-reply) is ours to free;
  // one still attached is freed by the connection right after this callback.
  if (evhttp_request_get_connection(completion->m_request) == nullptr) evhttp_request_free(completion->m_request);
  completion->m_request = nullptr;
  completion->m_loop.retire(completion);
}

void TimedCompletion::releaseConnection() {
  if (m_request == nullptr) return;
  evhttp_connection* connection = evhttp_request_get_connection(m_request);
  if (connection != nullptr) evhttp_connection_set_closecb(connection, nullptr, nullptr);
}

void TimedCompletion::step() {
  int64_t now = monotonicNs();
  DeadlineWaiter& deadlines = m_loop.deadlines();
  if (m_wakeAskedNs >= 0) deadlines.noteWake(m_wakeAskedNs, now);
  m_wakeAskedNs = -1;
  const int64_t total = std::min(m_formatter.completionTokens(), m_stream ? m_plan.cutAfter : FaultPlan::kNever);
  if (firstWritePending() && total > 0 && deadlines.shouldSpin(now, m_schedule.deadline(0)))
    now = spinUntil(m_schedule.deadline(0), [] { return monotonicNs(); });
  const int64_t due = m_schedule.writable(m_schedule.dueAt(now, total), total);
  if (m_stream && !m_headersSent) sendHeaders();
  if (m_stream && total == 0) {  // a stream cut before its first token
    sendStreamChunks(0);
    return m_loop.retire(this);
  }
  if (m_stream && due > m_sent) sendStreamChunks(due);
  if (m_stream && m_sent < total) return armTimer(monotonicNs());
  if (!m_stream && due < total) return armTimer(monotonicNs());
  if (!m_stream) sendFullBody();
  m_loop.retire(this);
}

void TimedCompletion::sendStreamChunks(int64_t due) {
  thread_local std::string text;
  text.clear();
  for (int64_t i = m_sent; i < due;) {
    const int64_t end = std::min(due, m_schedule.eventEnd(i, due));
    if (m_plan.malformedAt >= i && m_plan.malformedAt < end) {  // the broken event alone
      for (; i < end; ++i) {
        if (i == m_plan.malformedAt) m_formatter.appendMalformedChunk(text);
        else m_formatter.appendTokenChunk(text, i);
      }
    } else {
      m_formatter.appendTokenChunk(text, i, end - i);
      i = end;
    }
  }
  const bool cut = due >= m_plan.cutAfter;
  const bool done = cut || due >= m_formatter.completionTokens();
  if (done && !cut) m_formatter.appendStreamEnd(text);
  evbuffer* out = evhttp_request_get_output_buffer(m_request);
  evbuffer_add(out, text.data(), text.size());
  MockStats::bump(m_stats.tokensSent, static_cast<uint64_t>(due - m_sent));
  if (done) releaseConnection();  // before the end: the reply may complete synchronously
  // The write's start is the token's instant: loopback delivers (and the client's kernel
  // stamps) the bytes inside the call, so an instant taken after it could follow the arrival.
  const int64_t now = monotonicNs();
  if (!text.empty()) {
    evhttp_send_reply_chunk(m_request, out);
    flushNow(m_request);
  }
  if (m_sent == 0 && due > 0) {
    m_stats.timeToFirstToken.record(now - m_schedule.startNs);
    m_stats.tokenLateness.recordFirstWrite(m_schedule.startNs, now);
  }
  if (done) m_stats.e2eLatency.record(now - m_schedule.startNs);
  recordLateness(m_sent, due, now);
  m_sent = due;
  if (!done) return;
  MockStats::bump(m_stats.requestsCompleted);
  evhttp_send_reply_end(m_request);
  m_request = nullptr;
}

void TimedCompletion::recordLateness(int64_t from, int64_t to, int64_t writtenNs) {
  for (int64_t i = from; i < to; ++i) m_stats.tokenLateness.record(i == 0, writtenNs - m_schedule.deadline(i));
}

void TimedCompletion::sendFullBody() {
  releaseConnection();
  if (m_plan.body.active()) {
    m_loop.startFaultyBody(m_request, m_formatter, m_plan.body, m_schedule.startNs);
  } else {
    sendFullBodyReply(m_request, m_formatter, m_stats, monotonicNs() - m_schedule.startNs);
  }
  m_request = nullptr;
}

}  // namespace plumbline::mock
