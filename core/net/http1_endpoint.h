#pragma once
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plumbline::net {

/// A plain http:// endpoint as the native HTTP/1.1 client needs it, parsed once per worker:
/// where to connect and what to put in every request's head.
struct Http1Endpoint {
  std::string host;        ///< as written, without brackets for an IPv6 literal
  uint16_t port = 80;
  std::string hostHeader;  ///< the Host header's value (port kept when the URL gave one)
  std::string target;      ///< path and query, "/" when the URL has none

  /// The endpoint for a plain http:// URL the native client can serve; nullopt for any other
  /// scheme, a URL with user:password@, or one it would have to re-encode (left to libcurl).
  static std::optional<Http1Endpoint> parse(const std::string& url);
};

/// One address an endpoint resolved to.
struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family() const { return storage.ss_family; }
};

/// "127.0.0.1:8000" or "[::1]:8000", for messages.
std::string describeAddress(const SocketAddress& a);

/// Resolves host and port (once, at start: never on the request path). IPv4 addresses come
/// first, since local servers most often listen on 127.0.0.1 only. Empty when the name does
/// not resolve; `error` then says why.
std::vector<SocketAddress> resolveEndpoint(const Http1Endpoint& e, std::string& error);

/// The request head shared by every request, up to (not including) the Content-Length value:
/// request line, Host, Content-Type, Accept and, with a key, Authorization.
std::string requestHeadPrefix(const Http1Endpoint& e, bool stream, const std::string& apiKey);

}  // namespace plumbline::net
