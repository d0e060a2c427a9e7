#include "core/engine/loopback_sources.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>
#include <string>

using plumbline::engine::LoopbackSources;

TEST(LoopbackSources, AppliesOnlyToIpv4LoopbackLiterals) {
  EXPECT_TRUE(LoopbackSources::appliesTo("127.0.0.1"));
  EXPECT_TRUE(LoopbackSources::appliesTo("127.1.2.3"));
  EXPECT_FALSE(LoopbackSources::appliesTo("localhost"));  // may resolve to ::1
  EXPECT_FALSE(LoopbackSources::appliesTo("[::1]"));
  EXPECT_FALSE(LoopbackSources::appliesTo("10.0.0.1"));
  EXPECT_FALSE(LoopbackSources::appliesTo("127.0.0"));
  EXPECT_FALSE(LoopbackSources::appliesTo("127.0.0.1.5"));
  EXPECT_FALSE(LoopbackSources::appliesTo("127..0.1"));
  EXPECT_FALSE(LoopbackSources::appliesTo("127.0.0.256"));
  EXPECT_FALSE(LoopbackSources::appliesTo("127.0.0.1x"));
  EXPECT_FALSE(LoopbackSources::appliesTo(""));
}

namespace {
std::string addressOf(const sockaddr_in& a) {
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &a.sin_addr, text, sizeof text);
  return text;
}
}  // namespace

TEST(LoopbackSources, ConnectionsComeFromSuccessiveSourceAddresses) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&at), sizeof at), 0);
  ASSERT_EQ(listen(listener, 64), 0);
  socklen_t len = sizeof at;
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&at), &len), 0);

  LoopbackSources sources;
  std::set<std::string> seen;
  const int n = static_cast<int>(LoopbackSources::kAddresses) + 2;
  for (int i = 0; i < n; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(sources.bindNext(fd));
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&at), sizeof at), 0) << "connection " << i;
    sockaddr_in peer{};
    len = sizeof peer;
    const int accepted = accept(listener, reinterpret_cast<sockaddr*>(&peer), &len);
    ASSERT_GE(accepted, 0);
    EXPECT_EQ(addressOf(peer), "127.0.0." + std::to_string(1 + i % LoopbackSources::kAddresses));
    EXPECT_NE(peer.sin_port, 0);  // a port was still chosen, at connect
    seen.insert(addressOf(peer));
    close(accepted);
    close(fd);
  }
  EXPECT_EQ(seen.size(), LoopbackSources::kAddresses);
  close(listener);
}

TEST(LoopbackSources, AppliesToResolvedIpv4LoopbackAddressesOnly) {
  sockaddr_storage s{};
  auto& in = reinterpret_cast<sockaddr_in&>(s);
  in.sin_family = AF_INET;
  in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_TRUE(LoopbackSources::appliesTo(s));
  in.sin_addr.s_addr = htonl(0x7f050403);  // 127.5.4.3
  EXPECT_TRUE(LoopbackSources::appliesTo(s));
  in.sin_addr.s_addr = htonl(0x0a000001);  // 10.0.0.1
  EXPECT_FALSE(LoopbackSources::appliesTo(s));
  sockaddr_storage v6{};
  v6.ss_family = AF_INET6;
  EXPECT_FALSE(LoopbackSources::appliesTo(v6));
}
