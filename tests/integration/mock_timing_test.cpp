// Scripted timing and client disconnects of `plumbline mock` (generous bounds only:
// tests never assert on tight wall-clock numbers).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "core/mock/embedded_target.h"
#include "tests/integration/keep_alive_client.h"
#include "tests/integration/mock_http.h"

namespace {

using nlohmann::json;
using plumbline::mock::EmbeddedTarget;
using plumbline::test::httpCall;
using plumbline::test::httpGet;
using plumbline::test::httpPost;
using plumbline::test::KeepAliveClient;
using plumbline::test::sseData;

std::string streamBody(int tokens) {
  return R"({"messages":[{"role":"user","content":"hi"}],"stream":true,"ignore_eos":true,"max_tokens":)" +
         std::to_string(tokens) + "}";
}

json statsOf(const EmbeddedTarget& mock) { return json::parse(httpGet(mock.baseUrl() + "/mock/stats").body); }

TEST(MockTiming, StreamFollowsTtftAndItl) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 50.0, 20.0, 1});
  const auto r = httpPost(mock.baseUrl() + "/v1/chat/completions", streamBody(5));
  ASSERT_EQ(r.status, 200);
  ASSERT_EQ(sseData(r.body).size(), 6u);
  ASSERT_FALSE(r.arrivalsMs.empty());
  EXPECT_GE(r.arrivalsMs.front(), 45.0);
  EXPECT_LE(r.arrivalsMs.front(), 150.0);
  const double spread = r.arrivalsMs.back() - r.arrivalsMs.front();  // 4 gaps of 20 ms
  EXPECT_GE(spread, 60.0);
  EXPECT_LE(spread, 300.0);
}

TEST(MockTiming, NonStreamingAnswersWhenGenerationWouldEnd) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 50.0, 20.0, 1});
  const auto r = httpPost(mock.baseUrl() + "/v1/completions", R"({"prompt":"x","max_tokens":5,"ignore_eos":true})");
  ASSERT_EQ(r.status, 200);
  ASSERT_FALSE(r.arrivalsMs.empty());
  EXPECT_GE(r.arrivalsMs.front(), 120.0);  // 50 + 4 * 20
  EXPECT_LE(r.arrivalsMs.front(), 400.0);
}

TEST(MockTiming, DefaultPresetIsSlowerThanInstant) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "default", std::nullopt, std::nullopt, 1});
  const auto r = httpPost(mock.baseUrl() + "/v1/chat/completions", streamBody(2));
  ASSERT_EQ(r.status, 200);
  ASSERT_FALSE(r.arrivalsMs.empty());
  EXPECT_GE(r.arrivalsMs.front(), 45.0);  // default preset: ttft 50 ms
}

TEST(MockTiming, ClientDisconnectMidStreamIsCancelled) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 10.0, 10.0, 2});
  // 300 tokens would take 3 s; the client leaves after the first chunk.
  const auto cut = httpCall({mock.baseUrl() + "/v1/chat/completions", streamBody(300), "", 5000, 1});
  EXPECT_EQ(cut.code, CURLE_WRITE_ERROR);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  const auto stats = statsOf(mock);
  EXPECT_EQ(stats["requests_received"], 1);
  EXPECT_EQ(stats["requests_completed"], 0);
  EXPECT_LT(stats["tokens_sent"].get<int>(), 100);
  EXPECT_EQ(httpPost(mock.baseUrl() + "/v1/chat/completions", streamBody(3)).status, 200);
  EXPECT_EQ(statsOf(mock)["requests_completed"], 1);
}

TEST(MockTiming, ClientTimeoutBeforeFirstTokenIsCancelled) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 400.0, 10.0, 1});
  const auto early = httpCall({mock.baseUrl() + "/v1/completions", R"({"prompt":"x","max_tokens":3})", "", 100, 0});
  EXPECT_EQ(early.code, CURLE_OPERATION_TIMEDOUT);
  const auto streamed = httpCall({mock.baseUrl() + "/v1/chat/completions", streamBody(3), "", 100, 0});
  EXPECT_EQ(streamed.code, CURLE_OPERATION_TIMEDOUT);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // past when both would have answered
  const auto stats = statsOf(mock);
  EXPECT_EQ(stats["requests_received"], 2);
  EXPECT_LE(stats["requests_completed"].get<int>(), 2);
}

TEST(MockTiming, ParallelStreamsOnAllLoopsComplete) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 5.0, 2.0, 2});
  constexpr int kClients = 8;
  constexpr int kEach = 5;
  std::vector<std::thread> clients;
  std::vector<int> good(kClients, 0);
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      for (int i = 0; i < kEach; ++i) {
        const auto r = httpPost(mock.baseUrl() + "/v1/chat/completions", streamBody(10));
        if (r.status == 200 && sseData(r.body).size() == 11u) ++good[static_cast<size_t>(c)];
      }
    });
  }
  for (auto& t : clients) t.join();
  for (int c = 0; c < kClients; ++c) EXPECT_EQ(good[static_cast<size_t>(c)], kEach) << "client " << c;
  const auto stats = statsOf(mock);
  EXPECT_EQ(stats["requests_received"], kClients * kEach);
  EXPECT_EQ(stats["requests_completed"], kClients * kEach);
  EXPECT_EQ(stats["tokens_sent"], kClients * kEach * 10);
}

/// One keep-alive HTTP/1.1 connection to the mock, written and read by hand: a request goes out
/// in one write, and its reply is read whole (Content-Length), each within a bounded time.
/// The kernel stamps arriving segments only while some socket on the machine asks for stamps,
/// and it turns stamping on with deferred work, not at once: a mock that is alone in asking may
/// read its first requests unstamped. This holds a socket that asks for the whole test, and
/// returns once a request on a warm-up connection came out timed from its arrival.
class StampsOn {
 public:
  explicit StampsOn(const EmbeddedTarget& mock) {
    m_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    if (m_fd >= 0) setsockopt(m_fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    KeepAliveClient warm(mock.baseUrl());
    for (int i = 0; i < 100 && warm.ok(); ++i) {
      if (!warm.send(R"({"prompt":"x","max_tokens":1,"ignore_eos":true})") || warm.reply().empty()) break;
      if (statsOf(mock)["requests_timed_from_arrival"].get<int64_t>() > 0) {
        m_on = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~StampsOn() {
    if (m_fd >= 0) close(m_fd);
  }
  bool on() const { return m_on; }

 private:
  int m_fd = -1;
  bool m_on = false;
};

// The mock times a request from when its bytes reached the socket (the kernel's stamp), not from
// when its loop read them. Proven by holding the mock (SIGSTOP) while a request arrives on a
// kept-alive connection: timed from arrival, the 300 ms TTFT has run out when the mock resumes
// 500 ms later and the reply comes at once; timed from the read, it would come 300 ms after.
// A connection's first request is timed from its read (the watch starts with it).
TEST(MockTiming, RequestsAreTimedFromTheirArrivalNotTheirRead) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 300.0, 0.0, 1});
  const StampsOn stamps(mock);
  ASSERT_TRUE(stamps.on()) << "no request was ever timed from its arrival";
  const int64_t before = statsOf(mock)["requests_timed_from_arrival"].get<int64_t>();
  const int64_t receivedBefore = statsOf(mock)["requests_received"].get<int64_t>();
  KeepAliveClient client(mock.baseUrl());
  ASSERT_TRUE(client.ok());
  const std::string body = R"({"prompt":"x","max_tokens":1,"ignore_eos":true})";
  ASSERT_TRUE(client.send(body));
  ASSERT_NE(client.reply().find("HTTP/1.1 200"), std::string::npos);

  ASSERT_EQ(kill(mock.pid(), SIGSTOP), 0);
  const auto sent = std::chrono::steady_clock::now();
  const bool wrote = client.send(body);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ASSERT_EQ(kill(mock.pid(), SIGCONT), 0);
  ASSERT_TRUE(wrote);
  const std::string second = client.reply();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count();
  ASSERT_NE(second.find("HTTP/1.1 200"), std::string::npos) << second;
  EXPECT_GE(ms, 500.0);
  EXPECT_LT(ms, 700.0) << "timed from the read, the reply would come ~800 ms after the send";
  const auto stats = statsOf(mock);
  EXPECT_EQ(stats["requests_received"].get<int64_t>() - receivedBefore, 2);
  EXPECT_EQ(stats["requests_timed_from_arrival"].get<int64_t>() - before, 1);  // the held one, not the first
}

// A closed connection's descriptor number comes back for the next one: that connection's first
// request is timed from its read again, and only its later requests from their arrival.
TEST(MockTiming, ANewConnectionOnAReusedDescriptorStartsFromTheRead) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 1.0, 0.0, 1});
  const StampsOn stamps(mock);
  ASSERT_TRUE(stamps.on()) << "no request was ever timed from its arrival";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the warm-up connection's close is seen
  const int64_t before = statsOf(mock)["requests_timed_from_arrival"].get<int64_t>();
  const std::string body = R"({"prompt":"x","max_tokens":1,"ignore_eos":true})";
  for (int connection = 0; connection < 3; ++connection) {
    {
      KeepAliveClient client(mock.baseUrl());
      ASSERT_TRUE(client.ok());
      for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(client.send(body));
        ASSERT_NE(client.reply().find("HTTP/1.1 200"), std::string::npos) << connection << " " << i;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the mock sees the close
    EXPECT_EQ(statsOf(mock)["requests_timed_from_arrival"].get<int64_t>() - before, 2 * (connection + 1))
        << "after connection " << connection;
  }
}

TEST(MockTiming, SigtermWithStreamsInFlightExitsZero) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 10.0, 10.0, 2});
  std::thread client([url = mock.baseUrl()] { httpCall({url + "/v1/chat/completions", streamBody(500), "", 3000, 0}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const int status = mock.stop();
  client.join();
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace

namespace {

// GET /mock/timing: the mock reports how late it wrote each streamed token against its due
// instant (its own error as a reference), first tokens apart from the rest.
TEST(MockTiming, ReportsItsOwnTokenLateness) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "", 30.0, 5.0, 1});
  const auto r = httpPost(mock.baseUrl() + "/v1/chat/completions", streamBody(4));
  ASSERT_EQ(r.status, 200);
  const auto t = httpGet(mock.baseUrl() + "/mock/timing");
  ASSERT_EQ(t.status, 200);
  const json j = json::parse(t.body);
  EXPECT_EQ(j["first_token_late_us"]["count"], 1);
  EXPECT_EQ(j["later_token_late_us"]["count"], 3);
  EXPECT_EQ(j["early_writes"], 0);  // never written before it was due
  EXPECT_GE(j["first_token_late_us"]["max"].get<double>(), 0.0);
  EXPECT_EQ(httpPost(mock.baseUrl() + "/mock/timing", "{}").status, 405);
  // And per stream, when it read the request and when it wrote the first token.
  const auto firsts = httpGet(mock.baseUrl() + "/mock/timing/requests");
  ASSERT_EQ(firsts.status, 200);
  long long received = 0, written = 0;
  ASSERT_EQ(std::sscanf(firsts.body.c_str(), "%lld %lld", &received, &written), 2) << firsts.body;
  EXPECT_GE(written - received, 30'000'000);  // never before its 30 ms TTFT
  EXPECT_EQ(std::count(firsts.body.begin(), firsts.body.end(), '\n'), 1);
}

}  // namespace
