#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/http1_connection.h"
#include "core/engine/loopback_sources.h"
#include "core/engine/request_driver.h"
#include "core/net/http1_endpoint.h"

struct event_base;
struct timeval;

namespace plumbline::engine {

/// The native HTTP/1.1 keep-alive client for plain http:// targets, on the worker's libevent
/// loop: one request in flight per connection, each written with one sendmsg (head + body,
/// a large body continued when the socket is writable), sockets registered with epoll once
/// per connection, responses parsed straight from recv(). Measures and classifies exactly as
/// the libcurl client does (ResponseReader), and never sends a request twice: a request whose
/// reused connection turns out dead fails as `no_reply`.
class Http1Driver final : public RequestDriver {
 public:
  Http1Driver(event_base* base, const WorkerConfig& config, OnDone onDone);
  ~Http1Driver() override;

  void start(Transfer* t) override;
  void drainFinished() override;
  void abortAll(metrics::ErrorClass cls) override;
  size_t socketsOpen() const override { return m_open; }
  size_t preconnect(size_t count, int64_t untilNs) override;
  std::string_view clientName() const override { return "native"; }
  /// How long a connect may take before its request fails: 10 s by default, and never longer
  /// than the request's timeout.
  void setConnectTimeout(int64_t ns);
  /// Connections open and idle, ready for reuse.
  size_t idleConnections() const { return m_idle.size(); }

 private:
  static void onReadable(int fd, short events, void* connection);
  static void onWritable(int fd, short events, void* connection);
  static void onTimer(int fd, short events, void* connection);
  static void onBody(void* connection, const char* p, size_t n);

  Http1Connection* takeConnection(Transfer& t);
  /// A closed connection object to open (reused, or new).
  Http1Connection* spareConnection();
  /// Opens a socket to address `index` (or a later one that may answer) and starts
  /// connecting; 0, or the errno that stopped it.
  int connectTo(Http1Connection& c, size_t index);
  /// A connection opened ahead finished connecting: idle if it did, closed if it did not.
  void warmed(Http1Connection& c);
  void writeRequest(Http1Connection& c);
  void readResponse(Http1Connection& c);
  /// A connect completed: the socket is read from now on and its address is preferred.
  void markConnected(Http1Connection& c);
  void connected(Http1Connection& c);
  void armTimer(Http1Connection& c, int64_t afterNs);
  /// The request ended: completed (its response read) or failed with `cls`.
  /// The response head's status, Retry-After and (for a 3xx) Location, onto the transfer.
  void takeReplyHead(Http1Connection& c, Transfer& t);
  void complete(Http1Connection& c, bool reusable, int64_t endNs);
  /// At a request's timeout: reads what has arrived; true if that ended the request (whole
  /// by the deadline, a failure found in it, or whole only after the deadline: a timeout;
  /// whole but undated, read after a hold across the deadline: completed).
  bool endedByWhatCame(Http1Connection& c);
  void fail(Http1Connection& c, metrics::ErrorClass cls, int osErrno = 0);
  /// A transport failure (reset, close, refused) classified as libcurl would.
  void transportFailure(Http1Connection& c, int osErrno);
  void finishTransfer(Transfer& t);
  /// Closes the socket (the object stays with the request, e.g. to try another address).
  void closeSocket(Http1Connection& c);
  /// Closes the socket and keeps the object for a later connection.
  void retire(Http1Connection& c);
  void makeIdle(Http1Connection& c);
  /// An idle connection the server may have closed meanwhile (a FIN not yet seen by the loop).
  bool stillOpen(Http1Connection& c);
  /// t failed to open a connection to m_addresses[address] with errno osErrno.
  void noteSocketError(Transfer& t, int osErrno, size_t address);
  /// When the bytes just read arrived (the kernel's stamp), on the run's clock.
  int64_t arrivalRel(int64_t arrivalRealNs) const;

  event_base* m_base;
  net::Http1Endpoint m_endpoint;
  std::vector<net::SocketAddress> m_addresses;
  std::string m_resolveError;
  std::string m_headPrefix;
  size_t m_preferredAddress = 0;
  int64_t m_connectTimeoutNs;
  const timeval* m_commonTimeout = nullptr;  ///< libevent's O(1) queue for the usual timeout
  std::vector<std::unique_ptr<Http1Connection>> m_connections;
  std::vector<Http1Connection*> m_spare;  ///< closed, ready to open again
  std::vector<Http1Connection*> m_idle;   ///< open and idle (most recently used last)
  LoopbackSources m_sources;  ///< source addresses for a 127.x target (own port space each)
  std::vector<Transfer*> m_done;          ///< finished, OnDone not yet run
  std::unique_ptr<char[]> m_readBuffer;
  size_t m_open = 0;
  int64_t m_readNs = 0;  ///< when the bytes being parsed arrived (kernel stamp; else when read)
  bool m_readStamped = false;  ///< m_readNs is a kernel arrival stamp, not the read's own time
  /// Streaming runs; off for a benchmark's comparison (PLUMBLINE_ARRIVAL_STAMPS=0)
  bool m_arrivalStamps = true;
  bool m_draining = false;
};

}  // namespace plumbline::engine
