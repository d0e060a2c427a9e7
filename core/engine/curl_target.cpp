#include "core/engine/curl_target.h"

#include <curl/curl.h>

#include <cstdlib>

namespace plumbline::engine {

namespace {
int bindSource(void* sources, curl_socket_t fd, curlsocktype purpose) {
  if (purpose == CURLSOCKTYPE_IPCXN) static_cast<LoopbackSources*>(sources)->bindNext(fd);
  return CURL_SOCKOPT_OK;  // a refused bind leaves the socket as libcurl made it
}
}  // namespace

CurlTarget::CurlTarget(const std::string& url) : m_url(url), m_envProxy(environmentNamesProxy()) {
  CURLU* h = curl_url();
  if (h != nullptr && curl_url_set(h, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    m_handle = h;
  } else if (h != nullptr) {
    curl_url_cleanup(h);
  }
  char* host = nullptr;
  if (m_handle != nullptr && !m_envProxy && curl_url_get(m_handle, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
    if (LoopbackSources::appliesTo(host)) m_sources = std::make_unique<LoopbackSources>();
    curl_free(host);
  }
}

CurlTarget::~CurlTarget() {
  if (m_handle != nullptr) curl_url_cleanup(m_handle);
}

void CurlTarget::applyTo(CURL* easy) const {
  // CURLOPT_URL stays set: when the URL did not parse, the transfer fails with libcurl's reason.
  curl_easy_setopt(easy, CURLOPT_URL, m_url.c_str());
  if (m_handle != nullptr) curl_easy_setopt(easy, CURLOPT_CURLU, m_handle);
  if (!m_envProxy) {
    curl_easy_setopt(easy, CURLOPT_PROXY, "");
    curl_easy_setopt(easy, CURLOPT_NOPROXY, "");
  }
  if (m_sources != nullptr) {
    curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, &bindSource);
    curl_easy_setopt(easy, CURLOPT_SOCKOPTDATA, m_sources.get());
  }
}

bool CurlTarget::environmentNamesProxy() {
  // libcurl reads "<scheme>_proxy" (lower case for http, either case for https) and
  // all_proxy / ALL_PROXY; HTTP_PROXY is listed too so that any proxy setting keeps the
  // per-request lookup rather than being second-guessed here.
  for (const char* name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return true;
  }
  return false;
}

}  // namespace plumbline::engine
