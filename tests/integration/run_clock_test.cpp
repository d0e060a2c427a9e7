// A run's stored t0 (runs.t0_wall_ns, and the live Hello's t0_wall_ns) is the wall-clock time of
// the instant its request times count from: t0_wall_ns + send_ns is when a request went out,
// which is what lets someone join a run's requests with a server's own logs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/store/run_reader.h"
#include "tests/integration/child_process.h"
#include "tests/integration/live_client.h"
#include "tests/integration/recording_http_server.h"
#include "tests/integration/machine_holds.h"
#include "tests/integration/timing_budget.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::LiveClient;
using plumbline::test::RecordingHttpServer;
using plumbline::test::TempDir;

TEST(RunClock, StoredT0IsTheWallClockOfTheInstantSendTimesCountFrom) {
  RecordingHttpServer server;
  TempDir dir;
  const json w{
      {"plumbline", 1},
      {"name", "clock"},
      {"verdict", {{"send_lag_tolerance_ms", 100.0}}},  // not what this test is about
      {"target", {{"url", server.baseUrl()}, {"api", "chat"}, {"model", "m"}, {"stream", false}}},
      {"load",
       {{"arrival", "constant"}, {"stages", json::array({{{"rate", 40}, {"duration_s", 1}}})}}},
      {"requests",
       {{"input_tokens", {{"dist", "fixed"}, {"value", 8}}},
        {"output_tokens", {{"dist", "fixed"}, {"value", 2}}}}}};
  const std::string workload = dir.file("w.json");
  std::ofstream(workload) << w.dump();
  ChildProcess run(
      {PLUMBLINE_BIN, "run", workload, "--db", dir.file("runs.db"), "--workers", "1", "--quiet",
       "--live", dir.file("live.sock"), "--summary-json", dir.file("s.json")},
      dir.file("out.txt"));
  LiveClient client(dir.file("live.sock"));
  const int code = run.wait(60'000);
  client.join();
  std::ifstream summary(dir.file("s.json"));
  ASSERT_TRUE(summary) << "exit " << code << "\n" << run.output();
  const json s = json::parse(summary);
  ASSERT_TRUE(plumbline::test::countsRunExitedAsItMay(code, s)) << "exit " << code << "\n"
                                                                << s.dump(2) << run.output();

  plumbline::store::RunReader reader(dir.file("runs.db"));
  const auto runs = reader.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  const int64_t t0Wall = runs[0].t0WallNs;
  std::vector<int64_t> sentWall;
  reader.forEachRequest(runs[0].id, [&](const plumbline::metrics::RequestRecord& r) {
    if (r.sendNs >= 0) sentWall.push_back(t0Wall + r.sendNs);
  });
  std::vector<int64_t> arrived = server.arrivalsWallNs();
  ASSERT_EQ(sentWall.size(), 40u);
  ASSERT_EQ(arrived.size(), sentWall.size());
  std::sort(sentWall.begin(), sentWall.end());
  std::sort(arrived.begin(), arrived.end());
  // On loopback a request is whole at the server microseconds after it was sent; the median
  // over 40 leaves out the odd one a busy test machine held up. Before t0 was written at t0,
  // the stored time was the run's creation, 100 ms or more earlier: every request then seemed
  // to arrive over 100 ms after it was sent.
  std::vector<int64_t> gaps;
  for (size_t i = 0; i < arrived.size(); ++i) gaps.push_back(arrived[i] - sentWall[i]);
  std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
  const int64_t medianGap = gaps[gaps.size() / 2];
  EXPECT_GT(medianGap, -5'000'000) << "requests arrived before they were sent, by the stored t0";
  EXPECT_LT(medianGap, 30'000'000)
      << "median arrival − (t0_wall_ns + send_ns) = " << medianGap << " ns";

  // The live Hello carries the same t0.
  const auto hellos = client.all<plumbline::live::LiveHello>();
  ASSERT_EQ(hellos.size(), 1u) << client.error();
  EXPECT_EQ(hellos[0].t0WallNs, t0Wall);
}
