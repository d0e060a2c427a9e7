#pragma once
#include <cstdint>
#include <string_view>

#include "core/engine/curl_target.h"
#include "core/engine/request_driver.h"

struct event_base;
struct event;
struct timeval;
struct curl_slist;
using CURLM = void;

namespace plumbline::engine {

/// libcurl multi (socket API) driven by a libevent loop: starts requests, reads SSE streams
/// as they arrive, timestamps every stage and classifies the outcome. Connections are kept
/// alive and reused by the multi handle's pool; transfers and their handles are recycled.
/// Serves https:// targets and proxies; plain http:// goes to Http1Driver unless forced here.
class HttpDriver final : public RequestDriver {
 public:
  HttpDriver(event_base* base, const WorkerConfig& config, OnDone onDone);
  ~HttpDriver() override;

  void start(Transfer* t) override;
  void drainFinished() override;
  void abortAll(metrics::ErrorClass cls) override;
  size_t socketsOpen() const override { return m_connections; }
  std::string_view clientName() const override { return "curl"; }

 protected:
  void prepareTransfer(Transfer& t) override;

 private:
  static int onSocket(CURL* easy, int s, int what, void* self, void* socketp);
  static int onTimerSet(CURLM* multi, long timeoutMs, void* self);
  static void onSocketEvent(int fd, short events, void* socketWatch);
  static void onTimeout(int fd, short events, void* self);
  /// A request's own timeout (libcurl is given none): reads what came first when the loop was
  /// held across it, then times the request out if that did not end it.
  static void onDeadline(int fd, short events, void* transfer);
  static size_t onHeader(char* p, size_t size, size_t n, void* transfer);
  static size_t onWrite(char* p, size_t size, size_t n, void* transfer);
  static int onPrereq(void* transfer, char* connIp, char* localIp, int connPort, int localPort);
  /// libcurl's progress callback: notes when the whole request body has been written.
  friend struct SocketCallbacks;  ///< opens and closes connections' sockets (http_driver.cpp)
  static int onProgress(void* transfer, int64_t dlTotal, int64_t dlNow, int64_t ulTotal, int64_t ulNow);

  CURL* newEasy(Transfer* t);
  void finish(Transfer& t, int curlCode);
  /// When a request's timeout passes (run time, ns).
  int64_t deadlineOf(const Transfer& t) const { return t.record.sendNs + m_config.timeoutNs; }
  /// Ends a request at its timeout, `lateNs` after it (the loop held that long past it).
  void timeOut(Transfer& t, int64_t lateNs);
  /// Fails a request whose connection was ready only `lateNs` after its deadline (its worker
  /// was held): class harness_limit, never written to the target.
  void notWritten(Transfer& t, int64_t lateNs);
  void release(Transfer& t);

  event_base* m_base;
  CurlTarget m_target;  ///< the URL parsed once, the proxy environment read once
  CURLM* m_multi = nullptr;
  event* m_timer = nullptr;                  ///< libcurl's own timer (CURLMOPT_TIMERFUNCTION)
  const timeval* m_commonTimeout = nullptr;  ///< every request's timeout, one libevent queue
  curl_slist* m_headers = nullptr;
  size_t m_sockets = 0;      ///< sockets libcurl asked us to watch
  size_t m_connections = 0;  ///< sockets opened and not yet closed
};

}  // namespace plumbline::engine
