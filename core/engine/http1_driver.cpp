#include "core/engine/http1_driver.h"

#include <event2/event.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

#include "core/engine/failure_reason.h"
#include "core/engine/loop_holds.h"
#include "core/engine/loop_timer.h"
#include "core/net/arrival_stamp.h"
#include "core/net/socket_state.h"
#include "core/util/clock.h"
#include "core/util/clock_pair.h"
#include "core/util/errno_text.h"

namespace plumbline::engine {

using metrics::ErrorClass;
using net::connectError;
using net::connectSettled;

namespace {
constexpr size_t kReadBufferBytes = 64 * 1024;
constexpr int64_t kMaxConnectTimeoutNs = 10'000'000'000;
/// An idle connection older than this is checked for a close before it carries a request.
constexpr int64_t kIdleCheckNs = 500'000'000;
/// A kernel arrival stamp older than this at the read is not trusted (a wall-clock step).
constexpr int64_t kMaxStampAgeNs = 60'000'000'000;
/// Bytes of a reply that could not be parsed kept for its failure sample.
constexpr size_t kKeptOnError = 1024;

/// Errors after which another address of the same host may still answer.
bool tryNextAddress(int err) {
  return err == ECONNREFUSED || err == ENETUNREACH || err == EHOSTUNREACH || err == EAFNOSUPPORT;
}
}  // namespace

Http1Driver::Http1Driver(event_base* base, const WorkerConfig& config, OnDone onDone)
    : RequestDriver(config, std::move(onDone)),
      m_base(base),
      m_connectTimeoutNs(std::min(config.timeoutNs, kMaxConnectTimeoutNs)),
      m_readBuffer(new char[kReadBufferBytes]),
      // Streams only: a non-streaming reply has no token instants to make precise, so it is
      // not worth recvmsg's control data and a kernel stamp on every segment.
      m_arrivalStamps(nativeArrivalStamps(config.stream)) {
  auto endpoint = net::Http1Endpoint::parse(config.endpointUrl);
  if (!endpoint) throw std::invalid_argument("the native HTTP/1.1 client cannot serve " + config.endpointUrl);
  m_endpoint = std::move(*endpoint);
  m_addresses = net::resolveEndpoint(m_endpoint, m_resolveError);
  m_headPrefix = net::requestHeadPrefix(m_endpoint, config.stream, config.apiKey);
  const timeval tv = util::toTimeval(config.timeoutNs);
  m_commonTimeout = event_base_init_common_timeout(base, &tv);
}

Http1Driver::~Http1Driver() {
  for (auto& c : m_connections) {
    closeSocket(*c);
    event_free(c->timer);
  }
}

void Http1Driver::start(Transfer* t) {
  addActive(*t);
  if (t->record.sendNs < 0) t->record.sendNs = nowRel();
  Http1Connection* c = takeConnection(*t);
  if (c == nullptr) {  // no socket or no address: t's error is set, OnDone runs in drainFinished
    t->record.endNs = nowRel();
    finishTransfer(*t);
    return;
  }
  c->transfer = t;
  t->connection = c;
  c->written = 0;
  c->parser.reset();
  c->head.assign(m_headPrefix);
  char digits[24];
  const char* end = std::to_chars(digits, digits + sizeof digits, t->body.size()).ptr;
  c->head.append(digits, static_cast<size_t>(end - digits)).append("\r\n\r\n");
  c->deadlineNs = t->record.sendNs + m_config.timeoutNs;
  if (c->connecting) {
    armTimer(*c, std::min(m_connectTimeoutNs, m_config.timeoutNs));
  } else {
    addTimerFromNow(m_base, c->timer, m_commonTimeout);
    writeRequest(*c);
  }
}

Http1Connection* Http1Driver::takeConnection(Transfer& t) {
  while (!m_idle.empty()) {
    Http1Connection* c = m_idle.back();
    m_idle.pop_back();
    c->idleIndex = SIZE_MAX;
    if (stillOpen(*c)) return c;
    retire(*c);
  }
  if (m_addresses.empty()) {
    t.record.error = ErrorClass::Connect;  // the host did not resolve
    t.failureDetail = m_resolveError;
    return nullptr;
  }
  Http1Connection* c = spareConnection();
  const int err = connectTo(*c, m_preferredAddress);
  if (err == 0) return c;
  noteSocketError(t, err, c->address);
  m_spare.push_back(c);
  return nullptr;
}

Http1Connection* Http1Driver::spareConnection() {
  if (!m_spare.empty()) {
    Http1Connection* c = m_spare.back();
    m_spare.pop_back();
    return c;
  }
  m_connections.push_back(std::make_unique<Http1Connection>());
  Http1Connection* c = m_connections.back().get();
  c->driver = this;
  c->timer = evtimer_new(m_base, &Http1Driver::onTimer, c);
  return c;
}

size_t Http1Driver::preconnect(size_t count, int64_t untilNs) {
  size_t started = 0;
  for (; started < count && !m_addresses.empty() && nowRel() < untilNs; ++started) {
    Http1Connection* c = spareConnection();
    if (connectTo(*c, m_preferredAddress) != 0) {  // refused, or out of descriptors: requests will say so
      m_spare.push_back(c);
      break;
    }
    if (!c->connecting) {
      makeIdle(*c);
      continue;
    }
    c->warming = true;
    armTimer(*c, m_connectTimeoutNs);
  }
  return started;
}

bool Http1Driver::stillOpen(Http1Connection& c) {
  if (nowRel() - c.idleSinceNs < kIdleCheckNs) return true;
  char byte = 0;
  const ssize_t n = recv(c.fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);  // nothing pending: no FIN, no stray bytes
}

void Http1Driver::noteSocketError(Transfer& t, int osErrno, size_t address) {
  // Out of descriptors or local ports is the harness's limit, never the server's error.
  if (const HarnessLimit limit = harnessLimitOf(osErrno); limit != HarnessLimit::None) {
    t.record.error = ErrorClass::HarnessLimit;
    m_limitHit = limit;
  } else {
    t.record.error = ErrorClass::Connect;
    t.failureDetail = "connect to " + net::describeAddress(m_addresses[address]) + ": " +
                      util::errnoText(osErrno);
  }
  t.socketErrno = osErrno;
}

int Http1Driver::connectTo(Http1Connection& c, size_t index) {
  const net::SocketAddress& a = m_addresses[index];
  c.address = index;  // also when socket() fails: a failure names the address it was for
  const int fd = socket(a.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (m_arrivalStamps) net::enableArrivalStamps(fd);  // refused: reads are timed when read
  if (LoopbackSources::appliesTo(a.storage)) m_sources.bindNext(fd);  // else connect() slows from ~14k
  c.fd = fd;
  ++m_open;
  c.served = false;
  c.readEvent = event_new(m_base, fd, EV_READ | EV_PERSIST, &Http1Driver::onReadable, &c);
  c.writeEvent = event_new(m_base, fd, EV_WRITE, &Http1Driver::onWritable, &c);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&a.storage), a.length) == 0) {
    c.connecting = false;
    event_add(c.readEvent, nullptr);
    return 0;
  }
  const int err = errno;
  if (err == EINPROGRESS) {
    c.connecting = true;
    event_add(c.writeEvent, nullptr);
    return 0;
  }
  closeSocket(c);
  if (tryNextAddress(err) && index + 1 < m_addresses.size()) return connectTo(c, index + 1);
  return err;
}

void Http1Driver::armTimer(Http1Connection& c, int64_t afterNs) {
  const timeval tv = util::toTimeval(afterNs);
  addTimerFromNow(m_base, c.timer, &tv);
}

void Http1Driver::markConnected(Http1Connection& c) {
  c.connecting = false;
  m_preferredAddress = c.address;
  event_add(c.readEvent, nullptr);
}

void Http1Driver::connected(Http1Connection& c) {
  markConnected(c);
  const int64_t leftNs = c.deadlineNs - nowRel();
  if (leftNs <= 0) {
    const std::string connect = "connect to " + net::describeAddress(m_addresses[c.address]);
    if (-leftNs < LoopHolds::kFloorNs) {  // on time: the connect took the whole timeout
      c.transfer->failureDetail = connect + " completed only as the " +
                                  describeTimeout(m_config.timeoutNs) + " timeout passed";
      return fail(c, ErrorClass::Timeout);
    }
    // The loop came to this socket only after the request's timeout (the worker was held): the
    // request is not sent late, and the server, which never got it, not blamed for it.
    c.transfer->failureDetail =
        connect + " completed, but " + notWrittenInTime(m_config.timeoutNs, -leftNs);
    m_limitHit = HarnessLimit::LoopHeld;
    return fail(c, ErrorClass::HarnessLimit);
  }
  armTimer(c, leftNs);
  writeRequest(c);
}

void Http1Driver::setConnectTimeout(int64_t ns) {
  m_connectTimeoutNs = std::min(ns, m_config.timeoutNs);
}

void Http1Driver::warmed(Http1Connection& c) {
  c.warming = false;
  evtimer_del(c.timer);
  if (connectError(c.fd) != 0) return retire(c);  // a request that needs it opens its own and reports why
  markConnected(c);
  makeIdle(c);
}

void Http1Driver::writeRequest(Http1Connection& c) {
  Transfer& t = *c.transfer;
  const size_t headBytes = c.head.size();
  const size_t total = headBytes + t.body.size();
  int64_t callNs = -1;
  while (c.written < total) {
    iovec iov[2];
    int parts = 0;
    if (c.written < headBytes) {
      iov[parts++] = {c.head.data() + c.written, headBytes - c.written};
      iov[parts++] = {t.body.data(), t.body.size()};
    } else {
      iov[parts++] = {t.body.data() + (c.written - headBytes), total - c.written};
    }
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = static_cast<size_t>(parts);
    // Upload end is when the write that handed over the last byte began, as the send is when
    // the first one began: after the call returns, the reply may already have arrived (the
    // kernel delivers loopback data, and the server answers, while the call is still in it).
    callNs = nowRel();
    const ssize_t n = sendmsg(c.fd, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        event_add(c.writeEvent, nullptr);  // the rest when the socket is writable again
        return;
      }
      transportFailure(c, errno);
      return;
    }
    c.written += static_cast<size_t>(n);
  }
  if (callNs >= 0) t.record.uploadEndNs = callNs;
}

void Http1Driver::onWritable(int, short, void* connection) {
  auto& c = *static_cast<Http1Connection*>(connection);
  Http1Driver& d = *c.driver;
  if (c.warming) return d.warmed(c);
  if (c.transfer == nullptr) return;
  if (c.connecting) {
    int err = connectError(c.fd);
    if (err == 0) {
      d.connected(c);
    } else {
      Transfer& t = *c.transfer;
      d.closeSocket(c);
      if (tryNextAddress(err) && c.address + 1 < d.m_addresses.size()) err = d.connectTo(c, c.address + 1);
      if (err == 0) {
        if (!c.connecting) d.connected(c);
      } else {
        if (t.record.error == ErrorClass::None) d.noteSocketError(t, err, c.address);
        d.fail(c, t.record.error);
      }
    }
  } else {
    d.writeRequest(c);
  }
  d.drainFinished();
}

void Http1Driver::onReadable(int, short, void* connection) {
  auto& c = *static_cast<Http1Connection*>(connection);
  Http1Driver& d = *c.driver;
  d.readResponse(c);
  d.drainFinished();
  if (d.m_afterRead) d.m_afterRead();  // `c` may be gone: retired, or reused by a send
}

void Http1Driver::onTimer(int, short, void* connection) {
  auto& c = *static_cast<Http1Connection*>(connection);
  Http1Driver& d = *c.driver;
  // A worker held up (stopped, or waiting for a CPU) wakes to every expired timer but to at most
  // 32 ready sockets per turn of its loop (libevent's first epoll batch): a connect may have
  // ended meanwhile unseen. The socket, not the timer, says whether the server answered (a
  // WorkerStall run once reported 28 connects as "no answer" after a 3.4 s hold).
  if ((c.warming || (c.transfer != nullptr && c.connecting)) && connectSettled(c.fd)) {
    event_del(c.writeEvent);  // it would come for the same news
    // Should the connect have failed and another address be tried, it has a timer still.
    if (!c.warming)
      d.armTimer(c, std::clamp<int64_t>(c.deadlineNs - d.nowRel(), 0, d.m_connectTimeoutNs));
    return onWritable(c.fd, EV_WRITE, connection);
  }
  if (c.warming) {  // a connection opened ahead that never completed: nobody is waiting for it
    c.warming = false;
    return d.retire(c);
  }
  if (c.transfer == nullptr) return;
  if (c.connecting) {
    c.transfer->failureDetail = "connect to " + net::describeAddress(d.m_addresses[c.address]) +
                                ": no answer within " + describeTimeout(d.m_connectTimeoutNs);
  } else if (d.endedByWhatCame(c)) {
    return d.drainFinished();
  } else if (const int64_t lateNs = d.nowRel() - c.deadlineNs;
             c.written < c.head.size() + c.transfer->body.size() && lateNs >= LoopHolds::kFloorNs) {
    c.transfer->failureDetail = heldWhileWriting(d.m_config.timeoutNs, lateNs);
  }
  d.fail(c, ErrorClass::Timeout);
  d.drainFinished();
}

bool Http1Driver::endedByWhatCame(Http1Connection& c) {
  // A worker held up (stopped, or waiting for a CPU) wakes to its timeouts and to the replies
  // that came meanwhile at once, in no set order. What is already in the socket is read first,
  // dated by its arrival stamps: a reply whole before the deadline is the server's success,
  // not a timeout caused by the harness's own stall (QA: a worker stopped for 4 s turned 17
  // replies the server had finished into timeouts).
  Transfer* t = c.transfer;
  const int64_t deadlineNs = c.deadlineNs;
  // This timer ran a loop hold or more late: what is read now may have come by the deadline.
  const bool heldPast = nowRel() - deadlineNs >= LoopHolds::kFloorNs;
  readResponse(c);
  if (c.transfer == t) return false;  // still waiting for more: the timeout stands
  // An end dated by its arrival stamp is judged by it. An undated one (a non-streaming reply,
  // read without stamps) read only after a hold across the deadline may have come in time: it
  // completed, dated when read, and its row carries the hold (timing_held). Read on time, it
  // came after the deadline.
  if (t->record.error == ErrorClass::None && t->record.endNs > deadlineNs &&
      (m_readStamped || !heldPast)) {
    t->record.error = ErrorClass::Timeout;
  }
  return true;
}

void Http1Driver::onBody(void* connection, const char* p, size_t n) {
  auto& c = *static_cast<Http1Connection*>(connection);
  Transfer& t = *c.transfer;
  if (!t.statusKnown) {
    t.status = c.parser.status();
    t.statusKnown = true;
    t.contentCoding = c.parser.contentCoding();  // the reader must know it before the body
  }
  t.bytesReceived += n;
  c.driver->m_reader.onBody(t, p, n, c.driver->m_readNs);
}

void Http1Driver::readResponse(Http1Connection& c) {
  char* buf = m_readBuffer.get();
  for (;;) {
    int64_t arrivalRealNs = -1;
    const ssize_t n = m_arrivalStamps ? net::recvWithArrival(c.fd, buf, kReadBufferBytes, arrivalRealNs)
                                      : recv(c.fd, buf, kReadBufferBytes, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (c.transfer == nullptr) {  // an idle connection closed, reset, or sent bytes nobody asked for
      retire(c);
      return;
    }
    if (n < 0) return transportFailure(c, errno);
    if (n == 0) {
      m_readStamped = false;
      if (c.parser.finishAtEof())
        complete(c, false, nowRel());  // a body delimited by the close
      else transportFailure(c, 0);
      return;
    }
    Transfer& t = *c.transfer;
    m_readNs = arrivalRel(arrivalRealNs);
    m_readStamped = arrivalRealNs >= 0;
    if (t.record.firstByteNs < 0) t.record.firstByteNs = m_readNs;
    const size_t used = c.parser.feed(buf, static_cast<size_t>(n), &Http1Driver::onBody, &c);
    if (c.parser.failed()) {
      t.failureDetail = net::http1ErrorText(c.parser.error());
      if (t.response.empty())
        t.response.assign(buf, std::min<size_t>(static_cast<size_t>(n), kKeptOnError));
      return fail(c, ErrorClass::MalformedStream);
    }
    if (c.parser.done()) {
      // Reusable only after a whole exchange: request fully written, nothing after the response.
      const bool clean = used == static_cast<size_t>(n) && c.written == c.head.size() + t.body.size();
      return complete(c, clean && c.parser.keepAlive(),
                      m_readNs);  // ended when its last bytes came
    }
    if (static_cast<size_t>(n) < kReadBufferBytes) return;
  }
}

int64_t Http1Driver::arrivalRel(int64_t arrivalRealNs) const {
  if (arrivalRealNs < 0) return util::monotonicNs() - m_config.t0Ns;
  const util::ClockPair now = util::readClockPair();  // one instant on both clocks (clock_pair.h)
  return net::arrivalOnMonotonic(arrivalRealNs, now.realNs, now.monoNs, kMaxStampAgeNs) - m_config.t0Ns;
}

void Http1Driver::takeReplyHead(Http1Connection& c, Transfer& t) {
  t.status = c.parser.status();
  t.statusKnown = true;
  t.record.retryAfterMs = c.parser.retryAfterMs();
  t.unreadableRetryAfter = c.parser.unreadableRetryAfter();
  t.contentCoding = c.parser.contentCoding();
  if (t.status / 100 == 3) t.location = c.parser.location();
}

void Http1Driver::complete(Http1Connection& c, bool reusable, int64_t endNs) {
  Transfer& t = *c.transfer;
  takeReplyHead(c, t);
  t.record.endNs = endNs;
  t.record.httpStatus = static_cast<int32_t>(t.status);
  m_reader.finishCompleted(t);
  c.transfer = nullptr;
  t.connection = nullptr;
  evtimer_del(c.timer);
  c.served = true;
  if (reusable) makeIdle(c);
  else retire(c);
  finishTransfer(t);
}

void Http1Driver::fail(Http1Connection& c, ErrorClass cls, int osErrno) {
  Transfer& t = *c.transfer;
  if (c.parser.headersDone()) takeReplyHead(c, t);
  t.record.endNs = nowRel();
  t.record.httpStatus = static_cast<int32_t>(t.status);
  if (m_reader.endedAtDone(t)) {
    // The stream had said "[DONE]": what failed after it (a close before the body's end, a
    // server holding the body open past the timeout) took nothing from the reply.
    t.failureDetail.clear();
    m_reader.finishCompleted(t);
  } else {
    t.record.error = cls;
    if (osErrno != 0) t.socketErrno = osErrno;
  }
  c.transfer = nullptr;
  t.connection = nullptr;
  retire(c);
  finishTransfer(t);
}

void Http1Driver::transportFailure(Http1Connection& c, int osErrno) {
  // The connection was open (a write or a read failed on it): nothing back is no_reply (on a
  // reused connection too: the request is never sent again), a response cut short stream_cut.
  Transfer& t = *c.transfer;
  const bool gotBytes = t.bytesReceived > 0 || t.record.firstByteNs >= 0;
  const std::string what =
      osErrno != 0 ? util::errnoText(osErrno) : "the server closed the connection";
  if (gotBytes) {
    t.failureDetail =
        what + " after " + std::to_string(t.bytesReceived) + " bytes of the reply's body";
    return fail(c, ErrorClass::StreamCut, osErrno);
  }
  const size_t total = c.head.size() + t.body.size();
  t.failureDetail = what + " before any reply byte, " +
                    (c.written >= total ? std::string("the request fully written")
                                        : std::to_string(c.written) + " of the request's " +
                                              std::to_string(total) + " bytes written");
  fail(c, ErrorClass::NoReply, osErrno);
}

void Http1Driver::finishTransfer(Transfer& t) {
  removeActive(t);
  m_done.push_back(&t);
}

void Http1Driver::drainFinished() {
  if (m_draining) return;  // OnDone may start requests and drain again: the outer loop has them
  m_draining = true;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{m_draining};
  // A transfer is reused only after its OnDone ran, so no OnDone can acquire one still queued.
  for (size_t i = 0; i < m_done.size(); ++i) {
    Transfer& t = *m_done[i];
    reportDone(t);
    recycle(t);
  }
  m_done.clear();
}

void Http1Driver::abortAll(ErrorClass cls) {
  drainFinished();  // what already ended is reported as it ended
  const int64_t now = nowRel();
  while (!m_active.empty()) {
    Transfer& t = *m_active.back();
    if (Http1Connection* c = t.connection) {
      c->transfer = nullptr;
      t.connection = nullptr;
      retire(*c);
    }
    t.record.endNs = now;
    t.record.error = cls;
    t.record.httpStatus = static_cast<int32_t>(t.status);
    removeActive(t);
    reportDone(t);
    recycle(t);
  }
}

void Http1Driver::makeIdle(Http1Connection& c) {
  c.idleSinceNs = nowRel();
  c.idleIndex = m_idle.size();
  m_idle.push_back(&c);
}

void Http1Driver::closeSocket(Http1Connection& c) {
  if (c.fd < 0) return;
  event_free(c.readEvent);
  event_free(c.writeEvent);
  c.readEvent = c.writeEvent = nullptr;
  evtimer_del(c.timer);
  ::close(c.fd);
  c.fd = -1;
  c.connecting = false;
  c.warming = false;
  --m_open;
}

void Http1Driver::retire(Http1Connection& c) {
  if (c.idleIndex != SIZE_MAX) {
    Http1Connection* last = m_idle.back();
    m_idle[c.idleIndex] = last;
    last->idleIndex = c.idleIndex;
    m_idle.pop_back();
    c.idleIndex = SIZE_MAX;
  }
  closeSocket(c);
  m_spare.push_back(&c);
}

}  // namespace plumbline::engine
