// CurlTarget prepares the URL and the proxy decision once per worker. What a transfer sends
// must not change because of it: the request goes to the URL's path, and a proxy named in
// the environment is still used (the request then reaches the proxy in absolute form).
#include <gtest/gtest.h>
#include <curl/curl.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "core/engine/curl_target.h"
#include "tests/integration/recording_http_server.h"

using plumbline::engine::CurlTarget;
using plumbline::test::RecordingHttpServer;

namespace {

constexpr const char* kProxyVars[] = {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                                      "no_proxy", "NO_PROXY"};

/// Clears every proxy variable for the test's duration and puts the old values back.
class ProxyEnvironment {
 public:
  ProxyEnvironment() {
    for (size_t i = 0; i < std::size(kProxyVars); ++i) {
      if (const char* v = std::getenv(kProxyVars[i])) m_saved[i] = v;
      unsetenv(kProxyVars[i]);
    }
  }
  ~ProxyEnvironment() {
    for (size_t i = 0; i < std::size(kProxyVars); ++i) {
      if (m_saved[i]) setenv(kProxyVars[i], m_saved[i]->c_str(), 1);
      else unsetenv(kProxyVars[i]);
    }
  }

 private:
  std::optional<std::string> m_saved[std::size(kProxyVars)];
};

size_t discard(char*, size_t size, size_t n, void*) { return size * n; }

/// One POST through an easy handle set up by the target; returns libcurl's result code.
CURLcode postOnce(const CurlTarget& target) {
  CURL* e = curl_easy_init();
  target.applyTo(e);
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, "{}");
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &discard);
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 10'000L);
  const CURLcode rc = curl_easy_perform(e);
  curl_easy_cleanup(e);
  return rc;
}

TEST(CurlTarget, ProxyVariablesAreDetectedAndEmptyOnesIgnored) {
  ProxyEnvironment env;
  EXPECT_FALSE(CurlTarget::environmentNamesProxy());
  setenv("all_proxy", "", 1);
  EXPECT_FALSE(CurlTarget::environmentNamesProxy());
  setenv("HTTPS_PROXY", "http://127.0.0.1:9", 1);
  EXPECT_TRUE(CurlTarget::environmentNamesProxy());
  EXPECT_TRUE(CurlTarget("http://127.0.0.1:9/v1/chat/completions").usesEnvironmentProxy());
}

TEST(CurlTarget, OnlyIpv4LoopbackTargetsWithoutProxySpreadTheirSourceAddresses) {
  ProxyEnvironment env;
  EXPECT_TRUE(CurlTarget("http://127.0.0.1:9/v1/chat/completions").spreadsSourceAddresses());
  EXPECT_FALSE(CurlTarget("http://localhost:9/v1/chat/completions").spreadsSourceAddresses());
  EXPECT_FALSE(CurlTarget("http://192.0.2.1:9/v1/chat/completions").spreadsSourceAddresses());
  EXPECT_FALSE(CurlTarget("http://[::1]:9/v1/chat/completions").spreadsSourceAddresses());
  setenv("http_proxy", "http://127.0.0.1:3128", 1);  // the proxy is the peer, not the target
  EXPECT_FALSE(CurlTarget("http://127.0.0.1:9/v1/chat/completions").spreadsSourceAddresses());
}

TEST(CurlTarget, RequestReachesTheUrlsPathWithoutProxy) {
  ProxyEnvironment env;
  RecordingHttpServer server;
  const CurlTarget target(server.baseUrl() + "/v1/chat/completions?x=1");
  EXPECT_FALSE(target.usesEnvironmentProxy());
  ASSERT_EQ(postOnce(target), CURLE_OK);
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].rfind("POST /v1/chat/completions?x=1 HTTP/1.1\r\n", 0), 0u) << server.requests()[0];
}

TEST(CurlTarget, ProxyFromTheEnvironmentIsStillUsed) {
  ProxyEnvironment env;
  RecordingHttpServer proxy;
  setenv("http_proxy", proxy.baseUrl().c_str(), 1);
  // Nothing listens on this address: only the proxy can have answered.
  const CurlTarget target("http://192.0.2.1:81/v1/chat/completions");
  EXPECT_TRUE(target.usesEnvironmentProxy());
  ASSERT_EQ(postOnce(target), CURLE_OK);
  ASSERT_EQ(proxy.requests().size(), 1u);
  EXPECT_EQ(proxy.requests()[0].rfind("POST http://192.0.2.1:81/v1/chat/completions HTTP/1.1\r\n", 0), 0u)
      << proxy.requests()[0];
}

TEST(CurlTarget, UrlLibcurlCannotParseFailsTheTransferWithItsReason) {
  ProxyEnvironment env;
  const CurlTarget target("http://[::1:80/");
  EXPECT_EQ(postOnce(target), CURLE_URL_MALFORMAT);
}

}  // namespace
