#include "core/net/http1_endpoint.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace plumbline::net {

namespace {
bool startsWithNoCase(const std::string& s, const char* prefix) {
  const size_t n = std::strlen(prefix);
  if (s.size() < n) return false;
  for (size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

/// Characters libcurl would pass through unchanged in a path or query.
bool plainTargetChar(char c) { return c > ' ' && c < 0x7f && c != '#'; }
}  // namespace

std::optional<Http1Endpoint> Http1Endpoint::parse(const std::string& url) {
  if (!startsWithNoCase(url, "http://")) return std::nullopt;
  const size_t authStart = 7;
  const size_t authEnd = std::min(url.find_first_of("/?#", authStart), url.size());
  const std::string authority = url.substr(authStart, authEnd - authStart);
  if (authority.empty() || authority.find('@') != std::string::npos) return std::nullopt;
  Http1Endpoint e;
  std::string portText;
  if (authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string::npos || close == 1) return std::nullopt;
    e.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      portText = authority.substr(close + 2);
    }
  } else {
    const size_t colon = authority.find(':');
    e.host = authority.substr(0, colon);
    if (colon != std::string::npos) portText = authority.substr(colon + 1);
    if (e.host.empty()) return std::nullopt;
  }
  if (!portText.empty()) {
    if (portText.size() > 5 || !std::all_of(portText.begin(), portText.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    const int port = std::stoi(portText);
    if (port < 1 || port > 65535) return std::nullopt;
    e.port = static_cast<uint16_t>(port);
  }
  e.hostHeader = authority;
  if (e.hostHeader.back() == ':') e.hostHeader.pop_back();  // "host:" means the default port
  std::string target = url.substr(authEnd);
  if (const size_t hash = target.find('#'); hash != std::string::npos) target.resize(hash);
  if (target.empty() || target.front() == '?') target.insert(0, "/");
  if (!std::all_of(target.begin(), target.end(), plainTargetChar)) return std::nullopt;
  e.target = std::move(target);
  return e;
}

std::string describeAddress(const SocketAddress& a) {
  char host[INET6_ADDRSTRLEN] = "?";
  if (a.family() == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(a.storage);
    inet_ntop(AF_INET, &in.sin_addr, host, sizeof host);
    return std::string(host) + ":" + std::to_string(ntohs(in.sin_port));
  }
  if (a.family() == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a.storage);
    inet_ntop(AF_INET6, &in6.sin6_addr, host, sizeof host);
    return "[" + std::string(host) + "]:" + std::to_string(ntohs(in6.sin6_port));
  }
  return "an address of family " + std::to_string(a.family());
}

std::vector<SocketAddress> resolveEndpoint(const Http1Endpoint& e, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* list = nullptr;
  const std::string port = std::to_string(e.port);
  const int rc = getaddrinfo(e.host.c_str(), port.c_str(), &hints, &list);
  std::vector<SocketAddress> out;
  if (rc != 0) {
    error = "cannot resolve host \"" + e.host + "\": " + gai_strerror(rc);
    return out;
  }
  for (addrinfo* a = list; a != nullptr; a = a->ai_next) {
    if (a->ai_addrlen > sizeof(sockaddr_storage)) continue;
    SocketAddress s;
    std::memcpy(&s.storage, a->ai_addr, a->ai_addrlen);
    s.length = a->ai_addrlen;
    out.push_back(s);
  }
  freeaddrinfo(list);
  std::stable_partition(out.begin(), out.end(), [](const SocketAddress& s) { return s.family() == AF_INET; });
  if (out.empty()) error = "host \"" + e.host + "\" has no TCP address";
  return out;
}

std::string requestHeadPrefix(const Http1Endpoint& e, bool stream, const std::string& apiKey) {
  std::string head = "POST " + e.target + " HTTP/1.1\r\nHost: " + e.hostHeader +
                     "\r\nContent-Type: application/json\r\nAccept: ";
  head += stream ? "text/event-stream" : "*/*";
  head += "\r\n";
  if (!apiKey.empty()) head += "Authorization: Bearer " + apiKey + "\r\n";
  head += "Content-Length: ";
  return head;
}

}  // namespace plumbline::net
