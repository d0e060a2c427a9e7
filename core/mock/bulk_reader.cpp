#include "core/mock/bulk_reader.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>

namespace plumbline::mock {

namespace {
/// Reads up to `want` bytes of `fd` straight into the end of `input` (unfrozen): their count,
/// or what readv returned.
ssize_t readInto(evbuffer* input, int fd, size_t want) {
  evbuffer_iovec space[2];
  const int parts = evbuffer_reserve_space(input, static_cast<ev_ssize_t>(want), space, 2);
  if (parts <= 0) return -1;
  iovec iov[2];
  for (int k = 0; k < parts; ++k) iov[k] = {space[k].iov_base, space[k].iov_len};
  ssize_t n = 0;
  do {
    n = readv(fd, iov, parts);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return n;  // nothing committed: the reserved space stays unused
  auto left = static_cast<size_t>(n);
  int used = 0;
  for (; used < parts && left > 0; ++used) {
    space[used].iov_len = std::min(space[used].iov_len, left);
    left -= space[used].iov_len;
  }
  evbuffer_commit_space(input, space, used);
  return n;
}
}  // namespace

void BulkReader::readQueued(bufferevent* bev, int fd, size_t queued) {
  // Where libevent would not read either: reads disabled (evhttp writing a reply), or another
  // socket.
  if (queued <= kLibeventReadBytes || bev == nullptr || bufferevent_getfd(bev) != fd ||
      (bufferevent_get_enabled(bev) & EV_READ) == 0)
    return;
  evbuffer* input = bufferevent_get_input(bev);
  size_t want = queued;
  size_t high = 0;
  bufferevent_getwatermark(bev, EV_READ, nullptr, &high);
  if (high > 0) {
    const size_t held = evbuffer_get_length(input);
    if (held >= high) return;
    want = std::min(want, high - held);
  }
  // A bufferevent keeps its input's end frozen but while it reads into it itself; so here.
  evbuffer_unfreeze(input, 0);
  const ssize_t n = readInto(input, fd, want);
  evbuffer_freeze(input, 0);
  if (n <= 0) return;  // an error or the end of the stream: libevent's own read finds it
  if (m_bytesRead != nullptr)
    m_bytesRead->fetch_add(static_cast<uint64_t>(n), std::memory_order_relaxed);
  // evhttp's read callback, with what its own read would have given it.
  bufferevent_trigger(bev, EV_READ, 0);
}

}  // namespace plumbline::mock
