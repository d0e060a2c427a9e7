#include "core/net/base_url.h"

#include <algorithm>
#include <string_view>

namespace plumbline::net {

std::string baseUrlProblem(const std::string& url) {
  std::string_view rest;
  if (url.rfind("http://", 0) == 0)
    rest = std::string_view(url).substr(7);
  else if (url.rfind("https://", 0) == 0)
    rest = std::string_view(url).substr(8);
  else
    return "expected an http:// or https:// URL";
  if (std::any_of(url.begin(), url.end(),
                  [](char c) { return static_cast<unsigned char>(c) <= ' ' || c == 0x7f; }))
    return "contains a space or a control character";
  const size_t authorityEnd = rest.find_first_of("/?#");
  const std::string_view authority = rest.substr(0, authorityEnd);
  if (authority.find('@') != std::string_view::npos)
    return "user:password@ in the URL is not supported (it would be stored and shown); "
           "give the key with target.api_key_env or --api-key-file";
  if (authorityEnd != std::string_view::npos &&
      rest.find_first_of("?#", authorityEnd) != std::string_view::npos)
    return "a query (?) or fragment (#) cannot be part of the base URL: "
           "the API path is appended to it";
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return "an IPv6 address needs its closing ']'";
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return "expected ':port' after the IPv6 address";
      port = after.substr(1);
      if (port.empty()) return "empty port after ':'";
    }
  } else if (const size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (port.empty()) return "empty port after ':'";
  }
  if (host.empty()) return "no host";
  if (!port.empty()) {
    if (port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return "port '" + std::string(port.substr(0, 16)) + "' is not a number";
    const int n = std::stoi(std::string(port));
    if (n < 1 || n > 65535) return "port " + std::to_string(n) + " is not between 1 and 65535";
  }
  return "";
}

}  // namespace plumbline::net
