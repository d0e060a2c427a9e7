#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <utility>

#include "core/engine/chunk_decoder.h"
#include "core/engine/curl_target.h"
#include "core/engine/harness_limit.h"
#include "core/engine/transfer.h"
#include "core/engine/worker_config.h"
#include "core/metrics/latency_histogram.h"

struct event_base;
struct event;
struct curl_slist;
using CURLM = void;

namespace plumbline::engine {

/// libcurl multi (socket API) driven by a libevent loop: starts requests, reads SSE streams
/// as they arrive, timestamps every stage and classifies the outcome. Connections are kept
/// alive and reused by the multi handle's pool; transfers and their handles are recycled.
class HttpDriver {
 public:
  using OnDone = std::function<void(Transfer&)>;

  HttpDriver(event_base* base, const WorkerConfig& config, OnDone onDone);
  ~HttpDriver();
  HttpDriver(const HttpDriver&) = delete;
  HttpDriver& operator=(const HttpDriver&) = delete;

  /// A transfer ready to fill (body, record); start() sends it now.
  Transfer* acquire();
  /// Sends now; record.sendNs is taken now unless the caller already set it. OnDone never
  /// runs inside start(): call drainFinished() after a batch of starts.
  void start(Transfer* t);
  /// Gives back a transfer that was acquired (its body built ahead) but will never be sent.
  void discard(Transfer* t) { m_free.push_back(t); }
  /// Collect every reply's text, not only those marked keepReply (the client counts their
  /// tokens once they complete).
  void keepAllReplies(bool keep) { m_keepAllReplies = keep; }
  /// Reports every finished request through OnDone.
  void drainFinished();
  /// Ends every request in flight as `cls` (stop after the grace period, or shutdown).
  void abortAll(metrics::ErrorClass cls);

  size_t inFlight() const { return m_active.size(); }
  /// Client connections open, in use or idle in the keep-alive pool.
  size_t socketsOpen() const { return m_connections; }
  /// The machine limit a request ran into since the last take (None if none).
  HarnessLimit takeHarnessLimit() { return std::exchange(m_limitHit, HarnessLimit::None); }
  /// Inter-token gaps since the last take (moved out, then cleared).
  metrics::LatencyHistogram& itl() { return m_itl; }
  int64_t nowRel() const;

 private:
  static int onSocket(CURL* easy, int s, int what, void* self, void* socketp);
  static int onTimerSet(CURLM* multi, long timeoutMs, void* self);
  static void onSocketEvent(int fd, short events, void* self);
  static void onTimeout(int fd, short events, void* self);
  static size_t onHeader(char* p, size_t size, size_t n, void* transfer);
  static size_t onWrite(char* p, size_t size, size_t n, void* transfer);
  static int onPrereq(void* transfer, char* connIp, char* localIp, int connPort, int localPort);
  /// libcurl's progress callback: notes when the whole request body has been written.
  friend struct SocketCallbacks;  ///< opens and closes connections' sockets (http_driver.cpp)
  static int onProgress(void* transfer, int64_t dlTotal, int64_t dlNow, int64_t ulTotal, int64_t ulNow);

  CURL* newEasy(Transfer* t);
  void readStream(Transfer& t, const char* p, size_t n, int64_t now);
  void onChunk(Transfer& t, const std::string& data, int64_t now);
  void finish(Transfer& t, int curlCode);
  void release(Transfer& t);

  event_base* m_base;
  const WorkerConfig& m_config;
  CurlTarget m_target;  ///< the URL parsed once, the proxy environment read once
  OnDone m_onDone;
  CURLM* m_multi = nullptr;
  event* m_timer = nullptr;
  curl_slist* m_headers = nullptr;
  ChunkDecoder m_decoder;
  metrics::LatencyHistogram m_itl;
  std::vector<std::unique_ptr<Transfer>> m_all;
  std::vector<Transfer*> m_free;
  std::vector<Transfer*> m_active;
  size_t m_sockets = 0;      ///< sockets libcurl asked us to watch
  size_t m_connections = 0;  ///< sockets opened and not yet closed
  HarnessLimit m_limitHit = HarnessLimit::None;
  bool m_keepAllReplies = false;
};

}  // namespace plumbline::engine
