#include "core/engine/loopback_sources.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <charconv>

namespace plumbline::engine {

bool LoopbackSources::appliesTo(std::string_view host) {
  // A dotted quad whose first part is 127: names (localhost) may resolve to ::1 instead.
  int parts = 0;
  for (size_t pos = 0; pos <= host.size(); ++parts) {
    const size_t dot = std::min(host.find('.', pos), host.size());
    unsigned value = 0;
    const auto [end, err] = std::from_chars(host.data() + pos, host.data() + dot, value);
    if (err != std::errc() || end != host.data() + dot || dot == pos || value > 255) return false;
    if (parts == 0 && value != 127) return false;
    pos = dot + 1;
  }
  return parts == 4;
}

bool LoopbackSources::appliesTo(const sockaddr_storage& address) {
  if (address.ss_family != AF_INET) return false;
  const auto& in = reinterpret_cast<const sockaddr_in&>(address);
  return (ntohl(in.sin_addr.s_addr) >> 24) == 127;
}

bool LoopbackSources::bindNext(int fd) {
  const int on = 1;
  if (setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &on, sizeof on) != 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = 0;
  a.sin_addr.s_addr = htonl((127u << 24) | (1u + m_next % kAddresses));
  ++m_next;
  return bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
}

}  // namespace plumbline::engine
