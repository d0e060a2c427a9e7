// Kernel arrival stamps on received bytes: the conversion onto the run's monotonic clock, the
// benchmark switch, and a real loopback TCP exchange (ordering only: nothing here is timed).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

#include "core/net/arrival_stamp.h"
#include "core/util/clock.h"

namespace {

using plumbline::net::arrivalOnMonotonic;

TEST(ArrivalStamp, ConvertsTheStampsAgeOntoTheMonotonicClock) {
  // Arrived 300 µs before now: 300 µs before now on the monotonic clock too.
  EXPECT_EQ(arrivalOnMonotonic(1'000'000'000'000, 1'000'000'300'000, 5'000'000, 60'000'000'000), 4'700'000);
}

TEST(ArrivalStamp, FallsBackToTheReadInstantWhenTheStampCannotBeRight) {
  const int64_t maxAge = 1'000'000'000;
  EXPECT_EQ(arrivalOnMonotonic(-1, 2'000'000'000, 777, maxAge), 777);             // no stamp
  EXPECT_EQ(arrivalOnMonotonic(2'000'000'001, 2'000'000'000, 777, maxAge), 777);  // after now: a step back
  EXPECT_EQ(arrivalOnMonotonic(900'000'000, 2'000'000'000, 777, maxAge), 777);    // older than maxAge
  EXPECT_EQ(arrivalOnMonotonic(1'000'000'000, 2'000'000'000, 5'000'000'000, maxAge), 4'000'000'000);  // at maxAge
}

TEST(ArrivalStamp, BenchmarkSwitchTakesOnlyZeroOrOne) {
  using plumbline::net::arrivalStampsFromEnv;
  EXPECT_TRUE(arrivalStampsFromEnv("X", nullptr));
  EXPECT_TRUE(arrivalStampsFromEnv("X", "1"));
  EXPECT_FALSE(arrivalStampsFromEnv("X", "0"));
  try {
    arrivalStampsFromEnv("PLUMBLINE_ARRIVAL_STAMPS", "yes");
    FAIL() << "accepted 'yes'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("PLUMBLINE_ARRIVAL_STAMPS"), std::string::npos) << e.what();
  }
}

/// A connected loopback TCP pair: {client, server}.
std::pair<int, int> tcpPair() {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  EXPECT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(listen(listener, 1), 0);
  EXPECT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const int client = socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_EQ(connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const int server = accept(listener, nullptr, nullptr);
  close(listener);
  return {client, server};
}

TEST(ArrivalStamp, LoopbackReadCarriesAStampBetweenTheSendAndTheRead) {
  auto [client, server] = tcpPair();
  ASSERT_TRUE(plumbline::net::enableArrivalStamps(client));
  // The kernel switches stamping on for the whole stack a moment after the first socket asks
  // (deferred work): segments before that carry no stamp, and a read of them reports -1.
  char buf[64];
  int64_t stamp = -1, beforeSend = 0, afterRead = 0;
  for (int attempt = 0; attempt < 500 && stamp < 0; ++attempt) {
    if (attempt != 0) usleep(2000);
    beforeSend = plumbline::util::wallClockNs();
    ASSERT_EQ(send(server, "data: x\n\n", 9, 0), 9);
    ASSERT_EQ(plumbline::net::recvWithArrival(client, buf, sizeof buf, stamp), 9);
    afterRead = plumbline::util::wallClockNs();
  }
  EXPECT_GE(stamp, beforeSend);
  EXPECT_LE(stamp, afterRead);
  close(client);
  close(server);
}

TEST(ArrivalStamp, NoStampUnlessAskedFor) {
  auto [client, server] = tcpPair();
  ASSERT_EQ(send(server, "x", 1, 0), 1);
  char buf[8];
  int64_t stamp = 0;
  EXPECT_EQ(plumbline::net::recvWithArrival(client, buf, sizeof buf, stamp), 1);
  EXPECT_EQ(stamp, -1);
  close(server);
  EXPECT_EQ(plumbline::net::recvWithArrival(client, buf, sizeof buf, stamp), 0);  // the close, as recv says it
  close(client);
}

}  // namespace
