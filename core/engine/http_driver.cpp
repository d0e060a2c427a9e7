#include "core/engine/http_driver.h"

#include <curl/curl.h>
#include <event2/event.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#include "core/engine/failure_reason.h"
#include "core/engine/loop_holds.h"
#include "core/engine/loop_timer.h"
#include "core/net/content_encoding.h"
#include "core/net/http1_response_parser.h"  // the bound on a kept Location, as the native client's
#include "core/net/retry_after.h"
#include "core/net/socket_state.h"
#include "core/util/clock.h"

namespace plumbline::engine {

using metrics::ErrorClass;

namespace {
/// libcurl's connect timeout where the request's own is longer (as the native client's).
constexpr int64_t kMaxConnectTimeoutMs = 10'000;

}  // namespace

/// Per-socket state handed to curl via curl_multi_assign: the socket's event, and the transfer
/// it carries (HTTP/1.1: one at a time).
struct SocketWatch {
  event* ev = nullptr;
  HttpDriver* driver = nullptr;
  Transfer* transfer = nullptr;
};

struct SocketCallbacks {
  static curl_socket_t open(void* transfer, curlsocktype, curl_sockaddr* a) {
    auto* t = static_cast<Transfer*>(transfer);
    const int fd = socket(a->family, a->socktype, a->protocol);
    if (fd < 0) t->socketErrno = errno;
    else ++t->driver->m_connections;
    return fd;
  }
  static int close(void* driver, curl_socket_t fd) {
    --static_cast<HttpDriver*>(driver)->m_connections;
    return ::close(fd);
  }
};

HttpDriver::HttpDriver(event_base* base, const WorkerConfig& config, OnDone onDone)
    : RequestDriver(config, std::move(onDone)), m_base(base), m_target(config.endpointUrl) {
  m_multi = curl_multi_init();
  if (m_multi == nullptr) throw std::runtime_error("curl_multi_init failed");
  curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &HttpDriver::onSocket);
  curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &HttpDriver::onTimerSet);
  curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
  // Keep a warm connection for every request that may be in flight at once.
  curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, static_cast<long>(config.maxInFlight + 16));
  m_timer = evtimer_new(base, &HttpDriver::onTimeout, this);
  const timeval tv = util::toTimeval(config.timeoutNs);
  m_commonTimeout = event_base_init_common_timeout(base, &tv);
  m_headers = curl_slist_append(m_headers, "Content-Type: application/json");
  m_headers = curl_slist_append(m_headers, "Expect:");  // never wait for 100-continue
  if (config.stream) m_headers = curl_slist_append(m_headers, "Accept: text/event-stream");
  if (!config.apiKey.empty()) {
    const std::string auth = "Authorization: Bearer " + config.apiKey;
    m_headers = curl_slist_append(m_headers, auth.c_str());
  }
}

HttpDriver::~HttpDriver() {
  for (auto& t : m_all) {
    if (t->activeIndex != SIZE_MAX) curl_multi_remove_handle(m_multi, t->easy);
    curl_easy_cleanup(t->easy);
    if (t->deadline != nullptr) event_free(t->deadline);
  }
  curl_multi_cleanup(m_multi);  // closes sockets: onSocket frees their events
  curl_slist_free_all(m_headers);
  event_free(m_timer);
}

CURL* HttpDriver::newEasy(Transfer* t) {
  CURL* e = curl_easy_init();
  if (e == nullptr) throw std::runtime_error("curl_easy_init failed");
  m_target.applyTo(e);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, m_headers);
  curl_easy_setopt(e, CURLOPT_POST, 1L);
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
  // No CURLOPT_TIMEOUT_MS: libcurl judges a timeout before it reads the socket, so a worker
  // held past a deadline (stopped, or without a CPU) turned replies the server had finished
  // meanwhile into timeouts. The request's timeout is this client's own timer (onDeadline), which
  // reads what came first. libcurl keeps only a connect timeout shorter than the request's.
  if (m_config.timeoutNs > kMaxConnectTimeoutMs * 1'000'000)
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(kMaxConnectTimeoutMs));
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &HttpDriver::onHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &HttpDriver::onWrite);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(e, CURLOPT_PRIVATE, t);
  static_assert(std::tuple_size_v<decltype(Transfer::curlError)> >= CURL_ERROR_SIZE);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->curlError.data());  // emptied by each transfer
  curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, &HttpDriver::onPrereq);
  curl_easy_setopt(e, CURLOPT_PREREQDATA, t);
  // libcurl 7.88 has no CURLINFO_POSTTRANSFER_TIME: the progress callback, called after every
  // socket write, tells when the upload counter reached the body size.
  curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, &HttpDriver::onProgress);
  curl_easy_setopt(e, CURLOPT_XFERINFODATA, t);
  curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  // Our own socket open and close: the errno when a connection cannot be opened (EMFILE is
  // the harness's limit, not the server's fault), and a count of connections open, idle
  // kept-alive ones included (libcurl stops watching those, so the socket callback cannot).
  curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, &SocketCallbacks::open);
  curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, t);
  curl_easy_setopt(e, CURLOPT_CLOSESOCKETFUNCTION, &SocketCallbacks::close);
  curl_easy_setopt(e, CURLOPT_CLOSESOCKETDATA, this);
  return e;
}

void HttpDriver::prepareTransfer(Transfer& t) {
  t.driver = this;
  t.easy = newEasy(&t);
  t.deadline = evtimer_new(m_base, &HttpDriver::onDeadline, &t);
}

void HttpDriver::start(Transfer* t) {
  curl_easy_setopt(t->easy, CURLOPT_POSTFIELDS, t->body.data());
  curl_easy_setopt(t->easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t->body.size()));
  addActive(*t);
  if (t->record.sendNs < 0) t->record.sendNs = nowRel();
  addTimerFromNow(m_base, t->deadline, m_commonTimeout);
  curl_multi_add_handle(m_multi, t->easy);
  // Drive it now rather than on the next loop turn, so the send happens at this instant.
  // Completions this finds are reported by the caller's drainFinished(), never from here.
  int running = 0;
  curl_multi_socket_action(m_multi, CURL_SOCKET_TIMEOUT, 0, &running);
}

void HttpDriver::release(Transfer& t) {
  evtimer_del(t.deadline);
  t.curlSocket = -1;
  curl_multi_remove_handle(m_multi, t.easy);
  removeActive(t);
  recycle(t);
}

void HttpDriver::abortAll(ErrorClass cls) {
  const int64_t now = nowRel();
  while (!m_active.empty()) {
    Transfer& t = *m_active.back();
    t.record.endNs = now;
    t.record.error = cls;
    t.record.httpStatus = static_cast<int32_t>(t.status);
    release(t);
    reportDone(t);
  }
}

int HttpDriver::onSocket(CURL* easy, int s, int what, void* self, void* socketp) {
  auto* d = static_cast<HttpDriver*>(self);
  auto* watch = static_cast<SocketWatch*>(socketp);
  // The transfer's socket, for its deadline to read first (libcurl's own closing handle, which
  // shuts idle connections, has no transfer).
  Transfer* t = nullptr;
  curl_easy_getinfo(easy, CURLINFO_PRIVATE, &t);
  if (t != nullptr) {
    if (what != CURL_POLL_REMOVE)
      t->curlSocket = s;
    else if (t->curlSocket == s)
      t->curlSocket = -1;
  }
  if (watch != nullptr) watch->transfer = what != CURL_POLL_REMOVE ? t : nullptr;
  if (what == CURL_POLL_REMOVE) {
    if (watch != nullptr) {
      event_free(watch->ev);
      delete watch;
      curl_multi_assign(d->m_multi, s, nullptr);
      --d->m_sockets;
    }
    return 0;
  }
  const short kind = static_cast<short>(((what & CURL_POLL_IN) != 0 ? EV_READ : 0) |
                                        ((what & CURL_POLL_OUT) != 0 ? EV_WRITE : 0) | EV_PERSIST);
  if (watch == nullptr) {
    watch = new SocketWatch{nullptr, d, t};
    watch->ev = event_new(d->m_base, s, kind, &HttpDriver::onSocketEvent, watch);
    curl_multi_assign(d->m_multi, s, watch);
    ++d->m_sockets;
  } else {
    event_del(watch->ev);
    event_assign(watch->ev, d->m_base, s, kind, &HttpDriver::onSocketEvent, watch);
  }
  event_add(watch->ev, nullptr);
  return 0;
}

int HttpDriver::onTimerSet(CURLM*, long timeoutMs, void* self) {
  auto* d = static_cast<HttpDriver*>(self);
  if (timeoutMs < 0) {
    evtimer_del(d->m_timer);
  } else {
    timeval tv{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    evtimer_add(d->m_timer, &tv);
  }
  return 0;
}

void HttpDriver::onSocketEvent(int fd, short events, void* socketWatch) {
  const auto* watch = static_cast<SocketWatch*>(socketWatch);
  HttpDriver* d = watch->driver;
  Transfer* t = watch->transfer;
  if (t != nullptr && t->activeIndex != SIZE_MAX && t->curlSocket == fd &&
      d->nowRel() > d->deadlineOf(*t)) {
    // Past its deadline (the loop was late to it), the request is judged before libcurl acts:
    // what came is read, but nothing is written late (libcurl would write a request whose
    // connect completed during a hold).
    onDeadline(-1, 0, t);
  } else {
    const int action = ((events & EV_READ) != 0 ? CURL_CSELECT_IN : 0) |
                       ((events & EV_WRITE) != 0 ? CURL_CSELECT_OUT : 0);
    int running = 0;
    curl_multi_socket_action(d->m_multi, fd, action, &running);
    d->drainFinished();
  }
  if ((events & EV_READ) != 0 && d->m_afterRead) d->m_afterRead();
}

void HttpDriver::onTimeout(int, short, void* self) {
  auto* d = static_cast<HttpDriver*>(self);
  int running = 0;
  curl_multi_socket_action(d->m_multi, CURL_SOCKET_TIMEOUT, 0, &running);
  d->drainFinished();
}

void HttpDriver::onDeadline(int, short, void* transfer) {
  auto& t = *static_cast<Transfer*>(transfer);
  HttpDriver& d = *t.driver;
  const int64_t lateNs = d.nowRel() - d.deadlineOf(t);
  // A worker held up (stopped, or waiting for a CPU) wakes to its timers and to the replies that
  // came meanwhile at once, in no set order. Held across this deadline, what is in the socket is
  // read first: a reply whole now may have come in time (undated: libcurl reads no arrival
  // stamps), so it completes, dated when read, its row carrying the hold (timing_held).
  if (lateNs >= LoopHolds::kFloorNs && t.curlSocket >= 0 && net::readWaiting(t.curlSocket)) {
    int running = 0;
    curl_multi_socket_action(d.m_multi, t.curlSocket, CURL_CSELECT_IN, &running);
    d.drainFinished();
    if (t.activeIndex == SIZE_MAX) return;  // ended by what came (completed, or its failure)
  }
  d.timeOut(t, lateNs);
  d.drainFinished();
}

void HttpDriver::timeOut(Transfer& t, int64_t lateNs) {
  auto& r = t.record;
  r.endNs = nowRel();
  if (!t.statusKnown) curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &t.status);
  r.httpStatus = static_cast<int32_t>(t.status);
  if (m_reader.endedAtDone(t)) {
    // The stream had said "[DONE]": a server holding the body open past the timeout took
    // nothing from the reply.
    m_reader.finishCompleted(t);
  } else {
    r.error = ErrorClass::Timeout;
    curl_off_t connectUs = 0;
    curl_easy_getinfo(t.easy, CURLINFO_CONNECT_TIME_T, &connectUs);
    const bool connected =
        connectUs > 0 || (t.curlSocket >= 0 && net::connectSettled(t.curlSocket) &&
                          net::connectError(t.curlSocket) == 0);
    if (t.attempts == 0 && connected && lateNs >= LoopHolds::kFloorNs) {
      // The server answered the connect; the request is not written late (onPrereq), nor the
      // server blamed for what it never got.
      notWritten(t, lateNs);
    } else if (!connected) {
      t.failureDetail =
          "no connection within the " + describeTimeout(m_config.timeoutNs) + " timeout";
    } else if (r.uploadEndNs < 0 && lateNs >= LoopHolds::kFloorNs) {
      t.failureDetail = heldWhileWriting(m_config.timeoutNs, lateNs);
    }  // else the generic words (failureReason): no reply, or not complete, within the timeout
  }
  release(t);
  reportDone(t);
}

void HttpDriver::notWritten(Transfer& t, int64_t lateNs) {
  t.record.error = ErrorClass::HarnessLimit;
  t.failureDetail = "connected, but " + notWrittenInTime(m_config.timeoutNs, lateNs);
  m_limitHit = HarnessLimit::LoopHeld;
}

int HttpDriver::onPrereq(void* transfer, char*, char*, int, int) {
  auto* t = static_cast<Transfer*>(transfer);
  HttpDriver& d = *t->driver;
  // libcurl writes a request once its connection is ready, however late the loop got there: a
  // connect or TLS handshake that completed while the worker was held is read past the
  // request's deadline (onDeadline). The request is not written late.
  if (t->attempts == 0) {
    if (const int64_t lateNs = d.nowRel() - d.deadlineOf(*t); lateNs >= LoopHolds::kFloorNs) {
      t->heldPastDeadlineNs = lateNs;
      return CURL_PREREQFUNC_ABORT;
    }
  }
  // libcurl silently resends a request when the server closed a reused connection without
  // answering. The server then saw two requests for one of ours: refuse the resend and record
  // the failure, so that what we count is what the server received.
  if (++t->attempts == 1) return CURL_PREREQFUNC_OK;
  t->retryRefused = true;
  return CURL_PREREQFUNC_ABORT;
}

int HttpDriver::onProgress(void* transfer, int64_t, int64_t, int64_t ulTotal, int64_t ulNow) {
  auto* t = static_cast<Transfer*>(transfer);
  if (t->record.uploadEndNs < 0 && ulTotal > 0 && ulNow >= ulTotal) t->record.uploadEndNs = t->driver->nowRel();
  return 0;
}

size_t HttpDriver::onHeader(char*, size_t size, size_t n, void* transfer) {
  auto* t = static_cast<Transfer*>(transfer);
  if (t->record.firstByteNs < 0) t->record.firstByteNs = t->driver->nowRel();
  return size * n;
}

size_t HttpDriver::onWrite(char* p, size_t size, size_t n, void* transfer) {
  auto* t = static_cast<Transfer*>(transfer);
  HttpDriver* d = t->driver;
  const size_t len = size * n;
  const int64_t now = d->nowRel();
  if (t->record.firstByteNs < 0) t->record.firstByteNs = now;
  if (!t->statusKnown) {
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->status);
    t->statusKnown = true;
    // Not decoded (no CURLOPT_ACCEPT_ENCODING): the reader must know it before the body.
    if (curl_header* h = nullptr;
        curl_easy_header(t->easy, "Content-Encoding", 0, CURLH_HEADER, -1, &h) == CURLHE_OK &&
        h != nullptr)
      t->contentCoding = net::bodyContentCoding(h->value);
  }
  t->bytesReceived += len;
  d->m_reader.onBody(*t, p, len, now);
  return len;
}

void HttpDriver::drainFinished() {
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(m_multi, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    Transfer* t = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
    finish(*t, static_cast<int>(msg->data.result));
  }
}

namespace {
ErrorClass classifyCurl(int code, bool gotBytes) {
  switch (static_cast<CURLcode>(code)) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return ErrorClass::Connect;
    case CURLE_OPERATION_TIMEDOUT:
      return ErrorClass::Timeout;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_BAD_CONTENT_ENCODING:
      return ErrorClass::MalformedStream;
    case CURLE_GOT_NOTHING:  // connected, the request went out, the server closed: no reply
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
      return gotBytes ? ErrorClass::StreamCut : ErrorClass::NoReply;
    default:
      return gotBytes ? ErrorClass::StreamCut : ErrorClass::Connect;
  }
}
}  // namespace

void HttpDriver::finish(Transfer& t, int curlCode) {
  auto& r = t.record;
  r.endNs = nowRel();
  if (!t.statusKnown) curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &t.status);
  r.httpStatus = static_cast<int32_t>(t.status);
  // The last response's header (-1 in the request: the final one, after any 1xx).
  if (curl_header* h = nullptr;
      curl_easy_header(t.easy, "Retry-After", 0, CURLH_HEADER, -1, &h) == CURLHE_OK && h != nullptr)
    if (r.retryAfterMs = net::parseRetryAfterMsNow(h->value); r.retryAfterMs < 0)
      t.unreadableRetryAfter.assign(
          std::string_view(h->value).substr(0, net::kMaxRetryAfterShown + 1));
  if (curl_header* h = nullptr;
      t.status / 100 == 3 &&
      curl_easy_header(t.easy, "Location", 0, CURLH_HEADER, -1, &h) == CURLHE_OK && h != nullptr)
    t.location.assign(std::string_view(h->value).substr(0, net::Http1ResponseParser::kMaxLocation));
  if (t.heldPastDeadlineNs > 0) {
    notWritten(t, t.heldPastDeadlineNs);  // refused by onPrereq
  } else if (t.retryRefused) {
    r.error = ErrorClass::NoReply;  // the server dropped the connection without a reply
    t.failureDetail = "the server closed the kept-alive connection as the request went out";
  } else if (curlCode != CURLE_OK && !m_reader.endedAtDone(t)) {
    r.error = classifyCurl(curlCode, t.bytesReceived > 0 || r.firstByteNs >= 0);
    t.failureDetail = t.curlError[0] != '\0' ? t.curlError.data()
                                             : curl_easy_strerror(static_cast<CURLcode>(curlCode));
    if (r.error == ErrorClass::Connect) {
      // Out of descriptors or local ports is the harness's limit, never the server's error.
      long osErrno = t.socketErrno;
      if (osErrno == 0) curl_easy_getinfo(t.easy, CURLINFO_OS_ERRNO, &osErrno);
      if (const HarnessLimit limit = harnessLimitOf(static_cast<int>(osErrno)); limit != HarnessLimit::None) {
        r.error = ErrorClass::HarnessLimit;
        m_limitHit = limit;
      }
    }
  } else {
    m_reader.finishCompleted(t);
  }
  release(t);
  reportDone(t);
}

}  // namespace plumbline::engine
