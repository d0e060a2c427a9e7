#pragma once
// When each request reached the mock's socket, so that its TTFT (and every later token's
// instant) counts from the request's arrival, as a server's does, and not from whenever the
// mock's loop got round to reading and parsing it: that wake-up would otherwise be measured by
// the client as if the client had added it.
#include <cstdint>
#include <memory>
#include <vector>

struct bufferevent;
struct event;
struct event_base;

namespace plumbline::mock {

class BulkReader;

/// Watches the loop's keep-alive connections for the next request's bytes and keeps the kernel
/// arrival stamp of the last segment that came in. A connection is watched from its first
/// completed request on (so that request is timed from its read, as before): its socket joins
/// a private epoll set (edge-triggered, one report per arriving segment), which the loop
/// watches at a priority above evhttp's own reads, so the stamp is taken before evhttp reads
/// the bytes. A closed socket leaves that set by itself (the kernel drops it), so nothing is
/// left behind for a reused descriptor number.
class RequestArrivals {
 public:
  /// Sets `base` to two priorities (call before any event is added to it). `bulk` (may be null,
  /// must outlive this) reads what arrives on a watched connection when it is more than libevent
  /// reads in a turn (a long prompt).
  explicit RequestArrivals(event_base* base, BulkReader* bulk = nullptr);
  ~RequestArrivals();
  RequestArrivals(const RequestArrivals&) = delete;
  RequestArrivals& operator=(const RequestArrivals&) = delete;

  /// The request just read on `bev`'s socket arrived at this CLOCK_MONOTONIC instant, or -1
  /// when that is unknown (the connection's first request, no stamp, or the stamp is not
  /// credible); from now on the connection's next request is watched.
  int64_t take(bufferevent* bev);

 private:
  static void onReady(int fd, short events, void* self);
  void drain();
  /// A watched descriptor: its last segment's stamp (-1 = none) and its connection, set when the
  /// descriptor joins the watch. The socket leaves the watch only when closed, which libevent
  /// does when it frees the bufferevent, so the watch never reports a descriptor whose `bev`
  /// is stale.
  struct Watched {
    int64_t arrivalRealNs = -1;
    bufferevent* bev = nullptr;
  };
  /// The entry for `fd` (grown on demand).
  Watched& slot(int fd);

  BulkReader* m_bulk;
  int m_epoll = -1;
  event* m_event = nullptr;
  std::vector<Watched> m_watched;  ///< by descriptor
  std::unique_ptr<char[]> m_scratch;
};

}  // namespace plumbline::mock
