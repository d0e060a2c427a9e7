#pragma once
#include <memory>
#include <string>

#include "core/engine/loopback_sources.h"

using CURL = void;
struct Curl_URL;

namespace plumbline::engine {

/// The endpoint as libcurl needs it for every request, prepared once per worker: the URL
/// parsed into a URL handle (so no transfer re-parses it), and the proxy decision taken from
/// the environment once (so no transfer re-reads http_proxy, all_proxy, no_proxy...). When no
/// proxy variable is set, transfers are told "no proxy" explicitly, which is exactly what
/// libcurl would have concluded from the environment, without looking it up per request.
class CurlTarget {
 public:
  explicit CurlTarget(const std::string& url);
  ~CurlTarget();
  CurlTarget(const CurlTarget&) = delete;
  CurlTarget& operator=(const CurlTarget&) = delete;

  /// Sets the URL (and, when the environment names no proxy, "no proxy") on an easy handle;
  /// for an IPv4 loopback target, also spreads its connections over source addresses
  /// (LoopbackSources).
  void applyTo(CURL* easy) const;
  bool usesEnvironmentProxy() const { return m_envProxy; }
  bool spreadsSourceAddresses() const { return m_sources != nullptr; }

  /// True when any variable libcurl reads to choose a proxy for HTTP(S) is set and non-empty.
  static bool environmentNamesProxy();

 private:
  std::string m_url;
  Curl_URL* m_handle = nullptr;  ///< null when libcurl cannot parse it: CURLOPT_URL reports why
  bool m_envProxy = false;
  /// Set for an IPv4 loopback target (and no proxy); its round-robin position changes with
  /// every connection, which is not part of the target's value.
  std::unique_ptr<LoopbackSources> m_sources;
};

}  // namespace plumbline::engine
