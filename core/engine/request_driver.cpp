#include "core/engine/request_driver.h"

#include <cstdlib>
#include <cstring>

#include "core/engine/curl_target.h"
#include "core/engine/diagnostic_switches.h"
#include "core/engine/http1_driver.h"
#include "core/engine/http_driver.h"
#include "core/net/arrival_stamp.h"
#include "core/net/http1_endpoint.h"
#include "core/util/clock.h"

namespace plumbline::engine {

const char* const kHttpClientEnv = "PLUMBLINE_HTTP_CLIENT";

RequestDriver::RequestDriver(const WorkerConfig& config, OnDone onDone)
    : m_config(config), m_onDone(std::move(onDone)), m_reader(config) {}

RequestDriver::~RequestDriver() = default;

int64_t RequestDriver::nowRel() const { return util::monotonicNs() - m_config.t0Ns; }

Transfer* RequestDriver::acquire() {
  if (m_free.empty()) {
    auto t = std::make_unique<Transfer>();
    t->activeIndex = SIZE_MAX;
    prepareTransfer(*t);
    m_free.push_back(t.get());
    m_all.push_back(std::move(t));
  }
  Transfer* t = m_free.back();
  m_free.pop_back();
  t->resetForRequest();
  return t;
}

void RequestDriver::addActive(Transfer& t) {
  t.activeIndex = m_active.size();
  m_active.push_back(&t);
}

void RequestDriver::removeActive(Transfer& t) {
  Transfer* last = m_active.back();
  m_active[t.activeIndex] = last;
  last->activeIndex = t.activeIndex;
  m_active.pop_back();
  t.activeIndex = SIZE_MAX;
}

namespace {

bool nativeCanServe(const std::string& url) {
  return net::Http1Endpoint::parse(url) && !CurlTarget::environmentNamesProxy();
}

}  // namespace

HttpClientKind chooseHttpClient(const std::string& url) {
  const char* forced = std::getenv(kHttpClientEnv);
  if (forced != nullptr && std::strcmp(forced, "curl") == 0) return HttpClientKind::Curl;
  return nativeCanServe(url) ? HttpClientKind::Native : HttpClientKind::Curl;
}

std::string httpClientChoiceError(const char* value, const std::string& url) {
  if (value == nullptr) return {};
  const std::string v = value;
  if (v.empty() || v == "auto" || v == "curl") return {};
  if (v == "native") {
    if (nativeCanServe(url)) return {};
    return std::string(kHttpClientEnv) + "=native: the native client speaks plain http:// without a proxy only; " +
           "this target needs libcurl (https, a proxy in the environment, or user:password@ in the URL)";
  }
  return std::string(kHttpClientEnv) + "=" + v + ": unknown HTTP client (use curl, native or auto)";
}

std::string_view httpClientName(HttpClientKind kind) { return kind == HttpClientKind::Native ? "native" : "curl"; }

bool nativeArrivalStamps(bool stream) {
  return net::arrivalStampsFromEnv(kArrivalStampsEnv, std::getenv(kArrivalStampsEnv)) && stream;
}

std::string timingClientName(const std::string& url, bool stream) {
  if (chooseHttpClient(url) == HttpClientKind::Curl) return "curl";
  return nativeArrivalStamps(stream) ? "native_arrival_stamps" : "native_read_times";
}

std::unique_ptr<RequestDriver> makeRequestDriver(event_base* base, const WorkerConfig& config,
                                                 RequestDriver::OnDone onDone) {
  if (chooseHttpClient(config.endpointUrl) == HttpClientKind::Native)
    return std::make_unique<Http1Driver>(base, config, std::move(onDone));
  return std::make_unique<HttpDriver>(base, config, std::move(onDone));
}

}  // namespace plumbline::engine
