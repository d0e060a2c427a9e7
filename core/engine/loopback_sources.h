#pragma once
#include <cstdint>
#include <string_view>

struct sockaddr_storage;

namespace plumbline::engine {

/// Spreads a worker's connections to a loopback target over several local source addresses.
///
/// Linux chooses a connect()'s local port by probing the ephemeral range for a (source,
/// destination) pair's unused port, even ports first. With one source address and one
/// destination, the ~14,100 even ports of the default range (32768-60999) are used up at
/// ~14,100 connections; from then on every connect() probes all of them before trying an odd
/// one (perf: __inet_check_established), and the worker stalls. Every 127.x.x.x address is
/// local, so binding each socket to the next of kAddresses of them (port still chosen at
/// connect, IP_BIND_ADDRESS_NO_PORT) gives each its own port space: 20,000 connections are
/// 1,250 per source address. Only for IPv4 loopback targets; others are left as they are.
/// Used by both clients: CurlTarget (libcurl's socket-option callback) and Http1Driver.
class LoopbackSources {
 public:
  static constexpr uint32_t kAddresses = 16;  ///< 127.0.0.1 .. 127.0.0.16

  /// True when a URL's host is an IPv4 loopback literal (127.x.x.x).
  static bool appliesTo(std::string_view host);
  /// True when a resolved address is IPv4 loopback (127.0.0.0/8).
  static bool appliesTo(const sockaddr_storage& address);

  /// Binds an AF_INET stream socket, not yet connected, to the next source address (port
  /// chosen at connect). False when the kernel refused: the socket is then left as it was.
  bool bindNext(int fd);

 private:
  uint32_t m_next = 0;
};

}  // namespace plumbline::engine
