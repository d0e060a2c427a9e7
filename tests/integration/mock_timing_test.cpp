// Scripted timing and client disconnects of `plumbline mock` (generous bounds only:
// tests never assert on tight wall-clock numbers).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "core/mock/embedded_target.h"
#include "tests/integration/mock_http.h"

namespace {

using nlohmann::json;
using plumbline::mock::EmbeddedTarget;
using plumbline::test::httpCall;
using plumbline::test::httpGet;
using plumbline::test::httpPost;
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
