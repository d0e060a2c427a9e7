#include "core/engine/curl_target.h"

#include <curl/curl.h>

#include <cstdlib>

namespace plumbline::engine {

CurlTarget::CurlTarget(const std::string& url) : m_url(url), m_envProxy(environmentNamesProxy()) {
  CURLU* h = curl_url();
  if (h != nullptr && curl_url_set(h, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    m_handle = h;
  } else if (h != nullptr) {
    curl_url_cleanup(h);
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
