#include "core/engine/endpoint_url.h"

#include <stdexcept>

#include "core/engine/worker_config.h"

namespace plumbline::engine {

namespace {
bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

std::string completionEndpoint(const std::string& baseUrl, workload::Api api) {
  if (baseUrl.rfind("http://", 0) != 0 && baseUrl.rfind("https://", 0) != 0)
    throw std::invalid_argument("target URL must start with http:// or https://, got '" + redactUrl(baseUrl) + "'");
  if (endsWith(baseUrl, "/chat/completions") || endsWith(baseUrl, "/completions")) return baseUrl;
  std::string base = baseUrl;
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (endsWith(base, "/v1")) base.resize(base.size() - 3);
  return base + endpointPath(api);
}

std::string redactUrl(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const auto hostStart = scheme + 3;
  const auto pathStart = url.find('/', hostStart);
  const auto at = url.rfind('@', pathStart == std::string::npos ? std::string::npos : pathStart);
  if (at == std::string::npos || at < hostStart) return url;
  return url.substr(0, hostStart) + url.substr(at + 1);
}

}  // namespace plumbline::engine
