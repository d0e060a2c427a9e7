#include "core/mock/mock_loop.h"

#include "core/engine/diagnostic_switches.h"
#include "core/mock/accept_backoff.h"
#include "core/mock/request_arrivals.h"
#include "core/mock/request_recorder.h"

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/bufferevent.h>
#include <event2/util.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <stdexcept>
#include <string_view>

#include "core/mock/completion_formatter.h"
#include "core/mock/engine_completion.h"
#include "core/mock/engine_scheduler.h"
#include "core/mock/faulty_body_reply.h"
#include "core/mock/mock_metrics.h"
#include "core/mock/mock_stats.h"
#include "core/mock/timed_completion.h"
#include "core/net/arrival_stamp.h"

namespace plumbline::mock {
namespace {

constexpr std::string_view kModelsBody =
    R"({"object":"list","data":[{"id":"mock","object":"model","created":0,"owned_by":"plumbline"}]})";

constexpr int kConnectionTimeoutS = 3600;
/// Benchmark-only knob: a fixed first-token spin margin in µs (0 = plain timers) instead of
/// the adaptive one, so that one benchmark can show the mock's lateness with and without it.

DeadlineWaiter makeDeadlineWaiter() {
  if (auto fixedNs = engine::SpinMargin::fixedMarginFromEnv(engine::kMockSpinEnv, std::getenv(engine::kMockSpinEnv)))
    return DeadlineWaiter(engine::SpinMargin::fixed(*fixedNs));
  return DeadlineWaiter();
}

int64_t msToNs(double ms) { return static_cast<int64_t>(ms * 1e6); }

std::string_view pathOf(const char* uri) {
  std::string_view path(uri != nullptr ? uri : "");
  const auto query = path.find('?');
  return query == std::string_view::npos ? path : path.substr(0, query);
}

}  // namespace

MockLoop::MockLoop(const MockSettings& settings, int listenFd, MockStatsBoard& board, int index,
                   EngineScheduler* engine)
    : m_settings(settings),
      m_engine(engine),
      m_faults(settings.faults, index),
      m_board(board),
      m_stats(board.forLoop(index)),
      m_index(index),
      m_bulk(&m_stats.requestBytesReadInBulk),
      m_deadlines(makeDeadlineWaiter()) {
  try {
    setUp(listenFd);
  } catch (...) {
    release();  // the destructor does not run for a throwing constructor
    throw;
  }
}

void MockLoop::setUp(int listenFd) {
  // The changelist coalesces evhttp's per-request read/write toggles into fewer
  // epoll_ctl calls: syscalls, not our code, dominate a profile of this server.
  event_config* config = event_config_new();
  event_config_set_flag(config, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
  // Tokens are due at µs-exact instants: timerfd timers, not epoll's millisecond timeouts.
  event_config_set_flag(config, EVENT_BASE_FLAG_PRECISE_TIMER);
  m_base = event_base_new_with_config(config);
  event_config_free(config);
  // Before any other event (it gives the base two priorities). Benchmark-only switch: off, the
  // mock times requests from their read, to show what arrival stamps remove.
  if (m_base != nullptr && net::arrivalStampsFromEnv(engine::kMockArrivalEnv, std::getenv(engine::kMockArrivalEnv)))
    m_arrivals = std::make_unique<RequestArrivals>(m_base, &m_bulk);
  m_http = m_base != nullptr ? evhttp_new(m_base) : nullptr;
  if (m_http == nullptr) throw std::runtime_error("mock: cannot create an event loop");
  evhttp_set_allowed_methods(m_http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT |
                                         EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS | EVHTTP_REQ_PATCH);
  evhttp_set_gencb(m_http, &MockLoop::onRequest, this);
  // evhttp's 50 s default would cut long streams: read stays armed (for close detection)
  // while the client, rightly, sends nothing.
  evhttp_set_timeout(m_http, kConnectionTimeoutS);
  m_wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  m_stopEvent = m_wakeFd >= 0 ? event_new(m_base, m_wakeFd, EV_READ, &MockLoop::onStop, this) : nullptr;
  if (m_stopEvent == nullptr || event_add(m_stopEvent, nullptr) != 0) {
    throw std::runtime_error("mock: cannot create the stop event");
  }
  if (m_engine != nullptr) {
    m_engineEvent = event_new(m_base, m_engine->wakeFd(m_index), EV_READ | EV_PERSIST, &MockLoop::onEngine, this);
    if (m_engineEvent == nullptr || event_add(m_engineEvent, nullptr) != 0) {
      throw std::runtime_error("mock: cannot watch the engine");
    }
  }
  const int own = dup(listenFd);
  evhttp_bound_socket* bound = own >= 0 ? evhttp_accept_socket_with_handle(m_http, own) : nullptr;
  if (bound == nullptr) {
    if (own >= 0) close(own);
    throw std::runtime_error("mock: cannot accept on the listening socket");
  }
  m_acceptBackoff = std::make_unique<AcceptBackoff>(m_base, evhttp_bound_socket_get_listener(bound),
                                                    m_index, m_settings.acceptShortage);
}

MockLoop::~MockLoop() { release(); }

void MockLoop::release() {
  // Timers and close callbacks go first; evhttp_free then frees connections and requests.
  for (auto& [raw, completion] : m_active) completion->detach();
  m_active.clear();
  for (auto& [id, completion] : m_engineActive) completion->detach();
  m_engineActive.clear();
  for (auto& [raw, reply] : m_faultyBodies) reply->detach();
  m_faultyBodies.clear();
  if (m_engineEvent != nullptr) event_free(m_engineEvent);
  m_engineEvent = nullptr;
  if (m_stopEvent != nullptr) event_free(m_stopEvent);
  m_acceptBackoff.reset();  // before evhttp_free frees the listener it watches
  if (m_http != nullptr) evhttp_free(m_http);
  m_arrivals.reset();
  if (m_base != nullptr) event_base_free(m_base);
  if (m_wakeFd >= 0) close(m_wakeFd);
  m_stopEvent = nullptr;
  m_http = nullptr;
  m_base = nullptr;
  m_wakeFd = -1;
}

void MockLoop::run() { event_base_dispatch(m_base); }

// An eventfd, unlike event_base_loopbreak, is not lost when stop() comes before run()
// has entered the loop, and it needs no locking in libevent (the loops run lock-free).
void MockLoop::stop() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(m_wakeFd, &one, sizeof one);
}

void MockLoop::onStop(int /*fd*/, short /*what*/, void* self) {
  event_base_loopbreak(static_cast<MockLoop*>(self)->m_base);
}

void MockLoop::retire(TimedCompletion* completion) { m_active.erase(completion); }

void MockLoop::retireEngine(uint64_t id, bool cancel) {
  if (cancel) m_engine->cancel(id);
  m_engineActive.erase(id);
}

void MockLoop::startFaultyBody(evhttp_request* request, const CompletionFormatter& formatter, const BodyFault& fault,
                               int64_t startNs) {
  auto reply = std::make_unique<FaultyBodyReply>(*this, m_stats, request, formatter, fault, startNs);
  FaultyBodyReply* raw = reply.get();
  m_faultyBodies.emplace(raw, std::move(reply));
  raw->begin();
}

void MockLoop::retire(FaultyBodyReply* reply) { m_faultyBodies.erase(reply); }

void MockLoop::onEngine(int /*fd*/, short /*what*/, void* self) { static_cast<MockLoop*>(self)->takeEngineTokens(); }

void MockLoop::takeEngineTokens() {
  m_engine->takeEmissions(m_index, m_emissions);
  for (const TokenEmission& e : m_emissions) {
    const auto it = m_engineActive.find(e.id);
    if (it != m_engineActive.end()) it->second->onTokens(e.tokens);  // may retire it
  }
}

void MockLoop::onRequest(evhttp_request* request, void* self) { static_cast<MockLoop*>(self)->route(request); }

void MockLoop::route(evhttp_request* request) {
  const std::string_view path = pathOf(evhttp_request_get_uri(request));
  const evhttp_cmd_type method = evhttp_request_get_command(request);
  const bool isGet = method == EVHTTP_REQ_GET;
  const bool isPost = method == EVHTTP_REQ_POST;
  if (path == "/v1/chat/completions" || path == "/v1/completions") {
    if (!isPost) return replyError(request, 405, "Method Not Allowed", "use POST for " + std::string(path));
    return handleCompletion(request, path == "/v1/completions" ? ApiKind::Completions : ApiKind::Chat);
  }
  if (path == "/mock/timing" || path == "/mock/timing/requests") {
    if (!isGet) return replyError(request, 405, "Method Not Allowed", "use GET for " + std::string(path));
    if (path == "/mock/timing") return replyJson(request, 200, "OK", m_board.timingJson());
    return replyText(request, "text/plain", m_board.firstWritesText());
  }
  if (path == "/v1/models" || path == "/mock/stats") {
    if (!isGet) return replyError(request, 405, "Method Not Allowed", "use GET for " + std::string(path));
    return replyJson(request, 200, "OK", path == "/mock/stats" ? m_board.toJson() : std::string(kModelsBody));
  }
  if (path == "/metrics") {
    if (!isGet) return replyError(request, 405, "Method Not Allowed", "use GET for /metrics");
    return replyText(request, "text/plain; version=0.0.4", renderMetrics(m_board, m_engine));
  }
  replyError(request, 404, "Not Found", "no such endpoint: " + std::string(path));
}

void MockLoop::handleCompletion(evhttp_request* request, ApiKind kind) {
  // The request's timing starts when its last byte reached the socket (the kernel's stamp), as a
  // server's would; where that is unknown, when it was read.
  const int64_t readNs = monotonicNs();
  evhttp_connection* connection = evhttp_request_get_connection(request);
  bufferevent* bev = connection != nullptr ? evhttp_connection_get_bufferevent(connection) : nullptr;
  const int64_t arrivedNs = bev != nullptr && m_arrivals ? m_arrivals->take(bev) : -1;
  const bool fromArrival = arrivedNs >= 0 && arrivedNs <= readNs;
  const int64_t receivedNs = fromArrival ? arrivedNs : readNs;
  if (fromArrival) MockStats::bump(m_stats.requestsTimedFromArrival);
  evbuffer* input = evhttp_request_get_input_buffer(request);
  const auto length = evbuffer_get_length(input);
  const auto* data = reinterpret_cast<const char*>(evbuffer_pullup(input, -1));
  std::string error;
  const int blockWords = m_engine != nullptr ? m_engine->blockTokens() : 0;
  const auto parsed = parseMockRequest(kind, std::string_view(data != nullptr ? data : "", length), error, blockWords);
  MockStats::bump(m_stats.requestsReceived);
  if (m_settings.recorder)
    m_settings.recorder->record(receivedNs, kind == ApiKind::Chat, std::string_view(data != nullptr ? data : "", length));
  if (!parsed) {
    MockStats::bump(m_stats.requestsCompleted);  // a 400 is a complete answer too
    return replyError(request, 400, "Bad Request", error);
  }
  const auto fault = m_faults.draw();
  if (fault) MockStats::bump(m_stats.faults[static_cast<size_t>(*fault)]);
  if (fault && replyWithFault(request, *fault)) return;
  const int64_t tokens = completionTokens(*parsed, m_settings.naturalLengthMean);
  const FaultPlan plan = m_faults.plan(fault, tokens, parsed->stream);
  if (m_engine != nullptr) return startOnEngine(request, *parsed, tokens, plan, receivedNs);
  startTimed(request, *parsed, tokens, plan, receivedNs);
}

/// Faults answered at once (or not at all); false for the ones played during the reply.
bool MockLoop::replyWithFault(evhttp_request* request, FaultClass fault) {
  switch (fault) {
    case FaultClass::Http500:
      MockStats::bump(m_stats.requestsCompleted);
      replyError(request, 500, "Internal Server Error", "injected fault: internal error", "server_error");
      return true;
    case FaultClass::Http503:
      MockStats::bump(m_stats.requestsCompleted);
      replyError(request, 503, "Service Unavailable", "injected fault: overloaded", "server_error");
      return true;
    case FaultClass::Http429:
      MockStats::bump(m_stats.requestsCompleted);
      evhttp_add_header(evhttp_request_get_output_headers(request), "Retry-After",
                        std::to_string(m_faults.settings().retryAfterS).c_str());
      replyError(request, 429, "Too Many Requests", "injected fault: rate limited", "rate_limit_error");
      return true;
    case FaultClass::Refuse: refuse(request); return true;
    default: return false;
  }
}

// The connection is reset at the TCP level without a byte of reply, as an overloaded server
// or a crashed backend behind a proxy does: connect(AF_UNSPEC) disconnects the socket, and a
// disconnect of an established TCP connection sends RST (no FIN, no lingering), while the
// descriptor stays libevent's. libevent then sees it close, lets go of the unanswered
// request and calls onRefusedClose, which frees it. The client reads ECONNRESET.
void MockLoop::refuse(evhttp_request* request) {
  evhttp_connection* connection = evhttp_request_get_connection(request);
  evhttp_connection_set_closecb(connection, &MockLoop::onRefusedClose, request);
  const int fd = bufferevent_getfd(evhttp_connection_get_bufferevent(connection));
  sockaddr unspec{};
  unspec.sa_family = AF_UNSPEC;
  if (connect(fd, &unspec, sizeof unspec) != 0) shutdown(fd, SHUT_RDWR);  // not TCP: close it plainly
}

void MockLoop::onRefusedClose(evhttp_connection* /*connection*/, void* request) {
  auto* req = static_cast<evhttp_request*>(request);
  if (evhttp_request_get_connection(req) == nullptr) evhttp_request_free(req);
}

CompletionFormatter MockLoop::formatterFor(const MockRequest& parsed, int64_t tokens,
                                           uint64_t id) const {
  return CompletionFormatter(parsed, tokens, id, static_cast<int64_t>(time(nullptr)),
                             m_settings.thinkingTokens);
}

void MockLoop::startTimed(evhttp_request* request, const MockRequest& parsed, int64_t tokens, const FaultPlan& plan,
                          int64_t receivedNs) {
  const int64_t itlNs = plan.trickleItlNs > 0 ? plan.trickleItlNs : msToNs(m_settings.itlMs);
  const TokenSchedule schedule{receivedNs,   msToNs(m_settings.ttftMs) + plan.holdFirstByteNs,
                               itlNs,        plan.stallAt,
                               plan.stallNs, m_settings.tokensPerEvent};
  if (!plan.cls && schedule.dueAt(receivedNs, tokens) >= tokens) return replyAtOnce(request, parsed, tokens, receivedNs);
  CompletionFormatter formatter = formatterFor(parsed, tokens, nextId());
  auto completion = std::make_unique<TimedCompletion>(*this, m_stats, request, std::move(formatter), parsed.stream,
                                                      schedule, plan);
  TimedCompletion* raw = completion.get();
  m_active.emplace(raw, std::move(completion));
  raw->begin();
}

void MockLoop::startOnEngine(evhttp_request* request, const MockRequest& parsed, int64_t tokens,
                             const FaultPlan& plan, int64_t receivedNs) {
  if (!m_engine->fits(parsed.promptTokens, tokens)) {
    MockStats::bump(m_stats.requestsCompleted);
    return replyError(request, 400, "Bad Request",
                      "prompt (" + std::to_string(parsed.promptTokens) + " tokens) plus " + std::to_string(tokens) +
                          " output tokens do not fit the KV cache");
  }
  const uint64_t id = nextId();
  CompletionFormatter formatter = formatterFor(parsed, tokens, id);
  auto completion = std::make_unique<EngineCompletion>(*this, m_stats, request, std::move(formatter), parsed.stream,
                                                       id, receivedNs, plan);
  EngineCompletion* raw = completion.get();
  m_engineActive.emplace(id, std::move(completion));
  // Submitted before begin(): a stream cut at once cancels a sequence the engine already has.
  m_engine->submit(SequenceSpec{id, parsed.promptTokens, parsed.blockHashes, tokens, parsed.temperature});
  raw->begin();
}

void MockLoop::replyAtOnce(evhttp_request* request, const MockRequest& parsed, int64_t tokens, int64_t receivedNs) {
  thread_local std::string body;
  body.clear();
  const CompletionFormatter formatter = formatterFor(parsed, tokens, nextId());
  if (parsed.stream) {
    const TokenSchedule events{.tokensPerEvent = m_settings.tokensPerEvent};
    for (int64_t i = 0; i < tokens;) {
      const int64_t end = events.eventEnd(i, tokens);
      formatter.appendTokenChunk(body, i, end - i);
      i = end;
    }
    formatter.appendStreamEnd(body);
  } else {
    formatter.appendFullBody(body);
  }
  evkeyvalq* headers = evhttp_request_get_output_headers(request);
  evhttp_add_header(headers, "Content-Type", parsed.stream ? "text/event-stream" : "application/json");
  evbuffer* out = evhttp_request_get_output_buffer(request);
  evbuffer_add(out, body.data(), body.size());
  MockStats::bump(m_stats.tokensSent, static_cast<uint64_t>(tokens));
  MockStats::bump(m_stats.requestsCompleted);
  const int64_t elapsed = monotonicNs() - receivedNs;
  m_stats.timeToFirstToken.record(elapsed);
  m_stats.e2eLatency.record(elapsed);
  evhttp_send_reply(request, 200, "OK", out);
}

void MockLoop::replyText(evhttp_request* request, const char* contentType, const std::string& body) {
  evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type", contentType);
  evbuffer* out = evhttp_request_get_output_buffer(request);
  evbuffer_add(out, body.data(), body.size());
  evhttp_send_reply(request, 200, "OK", out);
}

void MockLoop::replyJson(evhttp_request* request, int status, const char* reason, const std::string& body) {
  evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type", "application/json");
  evbuffer* out = evhttp_request_get_output_buffer(request);
  evbuffer_add(out, body.data(), body.size());
  evhttp_send_reply(request, status, reason, out);
}

void MockLoop::replyError(evhttp_request* request, int status, const char* reason, const std::string& message,
                          const char* type) {
  if (type == nullptr) type = status == 404 ? "not_found_error" : "invalid_request_error";
  replyJson(request, status, reason,
            R"({"error":{"message":")" + jsonEscape(message) + R"(","type":")" + type +
                R"(","param":null,"code":)" + std::to_string(status) + "}}");
}

}  // namespace plumbline::mock
