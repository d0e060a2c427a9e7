#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "core/engine/harness_limit.h"
#include "core/engine/response_reader.h"
#include "core/engine/transfer.h"
#include "core/engine/worker_config.h"
#include "core/metrics/latency_histogram.h"

struct event_base;

namespace plumbline::engine {

/// The worker's HTTP client, whichever does the work (libcurl, or the native HTTP/1.1 client):
/// starts requests, timestamps every stage, classifies every outcome the same way, and keeps
/// the transfers (record, body buffers) for reuse so the hot path allocates nothing.
class RequestDriver {
 public:
  using OnDone = std::function<void(Transfer&)>;

  RequestDriver(const WorkerConfig& config, OnDone onDone);
  virtual ~RequestDriver();
  RequestDriver(const RequestDriver&) = delete;
  RequestDriver& operator=(const RequestDriver&) = delete;

  /// A transfer ready to fill (body, record); start() sends it now.
  Transfer* acquire();
  /// Gives back a transfer that was acquired (its body built ahead) but will never be sent.
  void discard(Transfer* t) { m_free.push_back(t); }
  /// Sends now; record.sendNs is taken now unless the caller already set it. OnDone never
  /// runs inside start(): call drainFinished() after a batch of starts.
  virtual void start(Transfer* t) = 0;
  /// Reports every finished request through OnDone.
  virtual void drainFinished() = 0;
  /// Ends every request in flight as `cls` (stop after the grace period, or shutdown).
  virtual void abortAll(metrics::ErrorClass cls) = 0;
  /// Client connections open, in use or idle in the keep-alive pool.
  virtual size_t socketsOpen() const = 0;
  /// Starts opening up to `count` keep-alive connections before the first requests need them,
  /// stopping early once the run's clock reaches `untilNs`; they join the idle pool when
  /// connected (a failure leaves nothing behind: the request that needs one reports it).
  /// Returns how many it started. The libcurl client opens connections only on demand.
  virtual size_t preconnect(size_t count, int64_t untilNs) {
    (void)count;
    (void)untilNs;
    return 0;
  }
  /// "native" or "curl": which client this is (diagnostics, benchmarks).
  virtual std::string_view clientName() const = 0;

  /// Called after each socket callback that read replies, once its completions are reported:
  /// the worker sends there whatever came due during the callback (Worker::sendIfDue).
  void setAfterRead(std::function<void()> afterRead) { m_afterRead = std::move(afterRead); }

  /// Collect every reply's text, not only those marked keepReply (the client counts their
  /// tokens once they complete).
  void keepAllReplies(bool keep) { m_reader.keepAllReplies(keep); }
  size_t inFlight() const { return m_active.size(); }
  /// The machine limit a request ran into since the last take (None if none).
  HarnessLimit takeHarnessLimit() { return std::exchange(m_limitHit, HarnessLimit::None); }
  /// Inter-token gaps of the streams completed since the last take (moved out, then cleared).
  metrics::LatencyHistogram& itl() { return m_reader.itl(); }
  int64_t nowRel() const;

 protected:
  /// Called once for each new transfer before its first use (e.g. to give it a curl handle).
  virtual void prepareTransfer(Transfer& t) { (void)t; }
  void addActive(Transfer& t);
  void removeActive(Transfer& t);
  /// The transfer is free for reuse (after its OnDone ran).
  void recycle(Transfer& t) { m_free.push_back(&t); }
  /// Reports t's final outcome to the worker (OnDone), its inter-token gaps settled first.
  void reportDone(Transfer& t) {
    m_reader.settleGaps(t);
    m_onDone(t);
  }

  const WorkerConfig& m_config;
  OnDone m_onDone;
  ResponseReader m_reader;
  std::vector<std::unique_ptr<Transfer>> m_all;
  std::vector<Transfer*> m_active;
  HarnessLimit m_limitHit = HarnessLimit::None;
  std::function<void()> m_afterRead;  ///< see setAfterRead; may be empty

 private:
  std::vector<Transfer*> m_free;
};

/// Which HTTP client serves `url`: the native HTTP/1.1 client for a plain http:// URL with no
/// proxy in the environment, libcurl otherwise (https, proxies, user:password@ URLs).
/// PLUMBLINE_HTTP_CLIENT (diagnostics: compare both on one target) forces one: `curl`, or
/// `native` where the native client can serve the URL; empty or `auto` chooses as above.
enum class HttpClientKind : uint8_t { Curl, Native };
extern const char* const kHttpClientEnv;  ///< "PLUMBLINE_HTTP_CLIENT"
HttpClientKind chooseHttpClient(const std::string& url);
/// Why PLUMBLINE_HTTP_CLIENT (its value given; null = unset) cannot be honoured for `url`, or
/// empty when it can: an unknown value, or `native` for a URL only libcurl serves. Checked
/// before a run starts, so a mistyped value is an error, not silently the default.
std::string httpClientChoiceError(const char* value, const std::string& url);
std::string_view httpClientName(HttpClientKind kind);
/// Whether the native client stamps each read with the kernel's arrival time of its bytes:
/// for streams (a whole body has no token instants), unless PLUMBLINE_ARRIVAL_STAMPS=0.
bool nativeArrivalStamps(bool stream);
/// How a run's requests to `url` are timed, as its summary records it ("http_client", see
/// metrics::RunSummary::httpClient): the client chooseHttpClient picks, and for the native
/// one whether it reads arrival stamps. Workers inherit the environment this reads.
std::string timingClientName(const std::string& url, bool stream);

/// The driver chooseHttpClient(config.endpointUrl) picks, on the worker's event loop.
std::unique_ptr<RequestDriver> makeRequestDriver(event_base* base, const WorkerConfig& config,
                                                 RequestDriver::OnDone onDone);

}  // namespace plumbline::engine
