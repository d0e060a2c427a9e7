#include "core/mock/request_arrivals.h"

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <utility>

#include "core/mock/bulk_reader.h"
#include "core/net/arrival_stamp.h"
#include "core/util/clock_pair.h"

namespace plumbline::mock {

namespace {
/// How far into a connection's queued bytes a stamp is looked for (a 32k-token prompt is
/// ~128 KB): the peek copies nothing, the buffer only makes the call valid.
constexpr size_t kScanBytes = 1 << 20;
/// A stamp older than this when its request is parsed is not this request's.
constexpr int64_t kMaxAgeNs = 1'000'000'000;
constexpr int kBatch = 64;
}  // namespace

RequestArrivals::RequestArrivals(event_base* base, BulkReader* bulk)
    : m_bulk(bulk), m_scratch(new char[kScanBytes]) {
  if (event_base_priority_init(base, 2) != 0) throw std::runtime_error("mock: cannot set event priorities");
  m_epoll = epoll_create1(EPOLL_CLOEXEC);
  if (m_epoll < 0) throw std::runtime_error("mock: cannot create the arrival watch");
  m_event = event_new(base, m_epoll, EV_READ | EV_PERSIST, &RequestArrivals::onReady, this);
  // Priority 0 runs before evhttp's reads (priority 1) that the same readiness activates.
  if (m_event == nullptr || event_priority_set(m_event, 0) != 0 || event_add(m_event, nullptr) != 0) {
    if (m_event != nullptr) event_free(m_event);
    close(m_epoll);
    throw std::runtime_error("mock: cannot watch request arrivals");
  }
}

RequestArrivals::~RequestArrivals() {
  event_free(m_event);
  close(m_epoll);
}

RequestArrivals::Watched& RequestArrivals::slot(int fd) {
  const auto i = static_cast<size_t>(fd);
  if (i >= m_watched.size()) m_watched.resize(i + 1);
  return m_watched[i];
}

int64_t RequestArrivals::take(bufferevent* bev) {
  const int fd = bev != nullptr ? bufferevent_getfd(bev) : -1;
  if (fd < 0) return -1;
  const int64_t realNs = std::exchange(slot(fd).arrivalRealNs, -1);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLET;
  ev.data.u64 = static_cast<uint64_t>(fd);
  if (epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) == 0) {
    // Not watched until now: this socket is new (any stamp kept was a closed socket's).
    net::enableArrivalStamps(fd);
    slot(fd).bev = bev;
    return -1;
  }
  if (errno != EEXIST || realNs < 0) return -1;
  // The client's rule for a credible stamp; it answers "now" for one that is not.
  const util::ClockPair now = util::readClockPair();
  const int64_t monoNs = net::arrivalOnMonotonic(realNs, now.realNs, now.monoNs, kMaxAgeNs);
  return monoNs == now.monoNs ? -1 : monoNs;
}

void RequestArrivals::onReady(int /*fd*/, short /*events*/, void* self) { static_cast<RequestArrivals*>(self)->drain(); }

void RequestArrivals::drain() {
  epoll_event ready[kBatch];
  int n = 0;
  do {
    n = epoll_wait(m_epoll, ready, kBatch, 0);
    for (int i = 0; i < n; ++i) {
      const auto fd = static_cast<int>(ready[i].data.u64);
      size_t queued = 0;
      const int64_t stamp = net::peekArrival(fd, m_scratch.get(), kScanBytes, &queued);
      Watched& w = slot(fd);
      if (stamp >= 0) w.arrivalRealNs = stamp;  // else nothing queued (evhttp read it already) or the peer closed
      // Last: evhttp may parse a whole request in it, and the request's handler calls take()
      // (which may grow m_watched: `w` is not used after this).
      if (m_bulk != nullptr) m_bulk->readQueued(w.bev, fd, queued);
    }
  } while (n == kBatch);
}

}  // namespace plumbline::mock
