// The mock's tokens leave when they are due, also on a kept-alive connection: a token written
// while the reply's headers await the client's delayed ACK must not wait for it (Nagle). Before
// the mock set TCP_NODELAY, a 10 ms TTFT measured ~40 ms from the second request on.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/integration/child_process.h"
#include "tests/integration/embedded_workload.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;

TEST(MockNoDelay, ShortTtftIsMeasuredAsConfiguredOnKeptAliveConnections) {
  TempDir dir;
  const json w = plumbline::test::embeddedStreamWorkload(
      {.name = "nodelay", .ttftMs = 10, .itlMs = 2, .seed = 1, .rate = 10, .durationS = 3, .inputTokens = 32, .outputTokens = 4});
  std::ofstream(dir.file("w.json")) << w.dump();
  ChildProcess run({PLUMBLINE_BIN, "run", dir.file("w.json"), "--db", dir.file("runs.db"), "--workers", "1",
                    "--summary-json", dir.file("s.json"), "--quiet"},
                   dir.file("out.txt"));
  const int code = run.wait(60'000);
  ASSERT_TRUE(code == 0 || code == 3) << run.output();
  std::ifstream in(dir.file("s.json"));
  const json s = json::parse(in);
  ASSERT_EQ(s.at("completed"), 30) << s.dump(2);
  // Median, not a tail: a slow, shared machine may delay a few; Nagle delayed all of them.
  EXPECT_GE(s.at("ttft_ms").at("p50").get<double>(), 10.0) << s.dump(2);
  EXPECT_LT(s.at("ttft_ms").at("p50").get<double>(), 25.0) << s.dump(2);
}
