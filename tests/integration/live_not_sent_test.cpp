// The live stream carries "not sent" while the run goes, not only in its last tick: a
// multi-turn session whose turn fails never sends its later turns, and every tick after that
// counts them (issue 6, "nothing is dropped silently").
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "tests/integration/child_process.h"
#include "tests/integration/live_client.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::LiveClient;
using plumbline::test::TempDir;

TEST(LiveNotSent, TicksCountRequestsThatWillNeverBeSentWhileTheRunGoes) {
  TempDir dir;
  std::ofstream(dir.file("mock.json")) << json{{"ttft_ms", 2}, {"itl_ms", 1}, {"threads", 1},
                                               {"faults", {{"http_500", 0.3}}}}.dump();
  ChildProcess mock({PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0", "--config", dir.file("mock.json")},
                    dir.file("mock.txt"));
  const std::string url = plumbline::test::firstLineOf(mock);
  ASSERT_FALSE(url.empty()) << mock.output();
  const json w{{"plumbline", 1},
               {"name", "not sent live"},
               {"verdict", {{"send_lag_tolerance_ms", 50.0}}},
               {"target", {{"url", url}, {"stream", true}}},
               {"load", {{"arrival", "constant"}, {"seed", 5}, {"stages", json::array({{{"rate", 10}, {"duration_s", 4}}})}}},
               {"requests", {{"input_tokens", {{"dist", "fixed"}, {"value", 16}}},
                             {"output_tokens", {{"dist", "fixed"}, {"value", 4}}}}},
               {"session", {{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 4}}},
                            {"think_time_s", {{"dist", "fixed"}, {"value", 0.05}}}}}};
  std::ofstream(dir.file("w.json")) << w.dump();
  ChildProcess run({PLUMBLINE_BIN, "run", dir.file("w.json"), "--db", dir.file("runs.db"), "--workers", "1",
                    "--summary-json", dir.file("s.json"), "--live", dir.file("live.sock"), "--quiet"},
                   dir.file("out.txt"));
  LiveClient client(dir.file("live.sock"));
  const int code = run.wait(60'000);
  ASSERT_TRUE(code == 0 || code == 3) << run.output();
  client.join();
  mock.signal(SIGTERM);
  mock.wait(5000);
  std::ifstream in(dir.file("s.json"));
  const json s = json::parse(in);

  const auto ticks = client.all<plumbline::live::LiveTick>();
  ASSERT_GT(ticks.size(), 4u);
  const uint64_t notSent = s.at("not_sent").get<uint64_t>();
  ASSERT_GT(notSent, 0u) << s.dump(2);  // 30% of turns fail: later turns of their sessions are never sent
  // Before the last tick (the run's end), ticks already counted some, never more than the end.
  uint64_t previous = 0;
  bool countedMidRun = false;
  for (size_t i = 0; i + 1 < ticks.size(); ++i) {
    EXPECT_GE(ticks[i].notSent, previous) << "tick " << i;
    EXPECT_LE(ticks[i].notSent, notSent) << "tick " << i;
    previous = ticks[i].notSent;
    countedMidRun |= ticks[i].notSent > 0 && ticks[i].atNs < 4'000'000'000;
  }
  EXPECT_TRUE(countedMidRun);
  EXPECT_EQ(ticks.back().notSent, notSent);
  uint64_t failed = 0;
  for (const auto& [k, v] : s.at("errors").items()) failed += v.get<uint64_t>();
  EXPECT_EQ(s.at("completed").get<uint64_t>() + failed + notSent, s.at("planned").get<uint64_t>()) << s.dump(2);
}
