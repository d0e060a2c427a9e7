#include "core/mock/accept_backoff.h"

#include <event2/event.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/mock/accept_shortage.h"
#include "core/util/clock.h"

namespace plumbline::mock {

namespace {
/// libevent hands the error callback the listener's own user pointer (evhttp's), not ours:
/// the loops find their back-off by listener here (built on one thread, used on another).
std::mutex g_registryMutex;
std::vector<std::pair<evconnlistener*, AcceptBackoff*>> g_registry;

AcceptBackoff* find(evconnlistener* listener) {
  std::lock_guard lock(g_registryMutex);
  for (const auto& [l, b] : g_registry)
    if (l == listener) return b;
  return nullptr;
}

bool isShortage(int err) { return err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM; }

/// Connections the kernel completed and that wait to be accepted (a listening socket's
/// tcpi_unacked is its accept queue's length); 0 when it cannot say.
uint64_t waitingToBeAccepted(evconnlistener* listener) {
  tcp_info info{};
  socklen_t len = sizeof(info);
  if (getsockopt(evconnlistener_get_fd(listener), IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
    return 0;
  return info.tcpi_unacked;
}
}  // namespace

AcceptBackoff::AcceptBackoff(event_base* base, evconnlistener* listener, int loopIndex,
                             AcceptShortage* shared)
    : m_listener(listener), m_loopIndex(loopIndex), m_shared(shared) {
  m_resume = evtimer_new(base, &AcceptBackoff::onResume, this);
  if (m_resume == nullptr) throw std::runtime_error("mock: cannot create the accept back-off timer");
  {
    std::lock_guard lock(g_registryMutex);
    g_registry.emplace_back(listener, this);
  }
  evconnlistener_set_error_cb(m_listener, &AcceptBackoff::onError);
}

AcceptBackoff::~AcceptBackoff() {
  {
    std::lock_guard lock(g_registryMutex);
    std::erase_if(g_registry, [this](const auto& entry) { return entry.second == this; });
  }
  if (m_resume != nullptr) event_free(m_resume);
}

void AcceptBackoff::onError(evconnlistener* listener, void*) {
  const int err = errno;
  AcceptBackoff* found = find(listener);
  if (found == nullptr) return;
  AcceptBackoff& self = *found;
  if (!isShortage(err)) {
    std::fprintf(stderr, "mock: loop %d: accept failed: %s\n", self.m_loopIndex, std::strerror(err));
    return;
  }
  // The connection waits in the backlog; accepting again before a descriptor is freed would
  // only fail again, as fast as the loop can turn.
  evconnlistener_disable(listener);
  ++self.m_pauses;
  const int64_t now = util::monotonicNs();
  if (self.m_shared != nullptr) self.m_shared->record(err, waitingToBeAccepted(listener), now);
  if (self.m_lastReportNs < 0 || now - self.m_lastReportNs >= 1'000'000'000) {
    std::fprintf(stderr, "mock: loop %d: accept failed: %s; pausing accepts %d ms at a time (%llu pauses so far)\n",
                 self.m_loopIndex, std::strerror(err), static_cast<int>(kPauseNs / 1'000'000),
                 static_cast<unsigned long long>(self.m_pauses));
    self.m_lastReportNs = now;
  }
  const timeval pause{0, static_cast<suseconds_t>(kPauseNs / 1000)};
  evtimer_add(self.m_resume, &pause);
}

void AcceptBackoff::onResume(int, short, void* self) {
  evconnlistener_enable(static_cast<AcceptBackoff*>(self)->m_listener);
}

}  // namespace plumbline::mock
