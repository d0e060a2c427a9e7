#include "core/engine/control_channel.h"

#include <event2/event.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace plumbline::engine {
namespace {

// A peer that has gone away (a worker that died at start, a killed coordinator) must close the
// channel with a named reason. Before, the write raised SIGPIPE: a worker dying at start took
// the coordinator, and the run's database row, with it (exit 141). Without the fix this test
// binary dies of SIGPIPE.
TEST(ControlChannel, APeerThatIsGoneClosesTheChannelInsteadOfRaisingSigpipe) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  ::close(sv[1]);
  event_base* base = event_base_new();
  std::string why;
  int closes = 0;
  {
    ControlChannel channel(base, sv[0], [](Frame&&) {}, [&](const std::string& w) {
      why = w;
      ++closes;
    });
    channel.send(protocol::FrameType::Stop, {});
    EXPECT_TRUE(channel.closed());
    EXPECT_FALSE(channel.flushBlocking(100));
  }
  EXPECT_EQ(closes, 1);
  EXPECT_NE(why.find("write failed"), std::string::npos) << why;
  EXPECT_NE(why.find("Broken pipe"), std::string::npos) << why;
  event_base_free(base);
  ::close(sv[0]);
}

}  // namespace
}  // namespace plumbline::engine
