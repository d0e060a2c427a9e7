// Issue 6, "Scale": when the harness runs out of file descriptors (or local ports) it says so
// by name in the verdict, and the requests it could not open a connection for are its own
// failures (class harness_limit), never server errors such as "connect".
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>

#include "tests/integration/child_process.h"
#include "tests/integration/db_query.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;
using plumbline::test::queryInt;

TEST(HarnessLimit, FileDescriptorsExhaustedIsANamedHarnessLimitNotServerErrors) {
  TempDir dir;
  // The mock runs with the machine's limits; only the run is held to 64 descriptors.
  ChildProcess mock({PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0", "--ttft-ms", "5", "--itl-ms", "20"},
                    dir.file("mock.txt"));
  const std::string url = plumbline::test::firstLineOf(mock);
  ASSERT_FALSE(url.empty()) << mock.output();
  // 2 s streams at 100 sessions/s: ~200 connections wanted at once, far more than 64 fds allow.
  const json w{{"plumbline", 1},
               {"name", "fd limit"},
               {"target", {{"url", url}, {"stream", true}}},
               {"load", {{"arrival", "constant"}, {"seed", 2}, {"stages", json::array({{{"rate", 100}, {"duration_s", 2}}})}}},
               {"requests", {{"input_tokens", {{"dist", "fixed"}, {"value", 16}}},
                             {"output_tokens", {{"dist", "fixed"}, {"value", 100}}},
                             {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
  std::ofstream(dir.file("w.json")) << w.dump();
  ChildProcess run({"/usr/bin/prlimit", "--nofile=64:64", PLUMBLINE_BIN, "run", dir.file("w.json"), "--db",
                    dir.file("runs.db"), "--workers", "1", "--summary-json", dir.file("s.json"), "--quiet"},
                   dir.file("out.txt"));
  const int code = run.wait(120'000);
  mock.signal(SIGTERM);
  mock.wait(5000);
  ASSERT_EQ(code, 3) << run.output();
  std::ifstream in(dir.file("s.json"));
  const json s = json::parse(in);
  SCOPED_TRACE(s.dump(2));

  EXPECT_EQ(s["verdict"], "harness_limited");
  bool named = false;
  const std::regex want(R"(^file descriptors exhausted in worker \d+ \(limit 64\)$)");
  for (const auto& reason : s["verdict_reasons"]) named |= std::regex_match(reason.get<std::string>(), want);
  EXPECT_TRUE(named);
  const json& errors = s["errors"];
  EXPECT_GT(errors.value("harness_limit", 0), 0);
  for (const char* server : {"connect", "no_reply", "timeout", "http_4xx", "http_5xx", "http_other",
                             "stream_cut", "malformed_stream"})
    EXPECT_FALSE(errors.contains(server)) << server;

  // Nothing dropped: the harness's failures are counted, stored, and add up with the rest.
  uint64_t failed = 0;
  for (const auto& [k, v] : errors.items()) failed += v.get<uint64_t>();
  EXPECT_GT(s["completed"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["completed"].get<uint64_t>() + failed + s["not_sent"].get<uint64_t>(), s["planned"].get<uint64_t>());
  EXPECT_EQ(queryInt(dir.file("runs.db"), "SELECT count(*) FROM requests WHERE error_class = 10"),
            errors.value("harness_limit", int64_t{0}));
}

TEST(HarnessLimit, TheEmbeddedMockOutOfDescriptorsIsTheHarnessLimitNotServerTimeouts) {
  TempDir dir;
  // The embedded mock is the run's own child: it inherits the run's 256 descriptors (hard limit
  // too, so it cannot raise them). ~1.7 s streams at 300 sessions/s want ~500 connections at
  // once; two workers can open that many, one mock cannot accept them.
  const json w{{"plumbline", 1},
               {"name", "embedded fd limit"},
               {"target",
                {{"url", "embedded"},
                 {"stream", true},
                 {"timeout_s", 2},
                 {"mock", {{"ttft_ms", 50}, {"itl_ms", 25}}}}},
               {"load",
                {{"arrival", "constant"},
                 {"seed", 2},
                 {"max_in_flight", 5000},
                 {"stages", json::array({{{"rate", 300}, {"duration_s", 3}}})}}},
               {"requests",
                {{"input_tokens", {{"dist", "fixed"}, {"value", 16}}},
                 {"output_tokens", {{"dist", "fixed"}, {"value", 64}}},
                 {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
  std::ofstream(dir.file("w.json")) << w.dump();
  ChildProcess run(
      {"/usr/bin/prlimit", "--nofile=256:256", PLUMBLINE_BIN, "run", dir.file("w.json"), "--db",
       dir.file("runs.db"), "--workers", "2", "--summary-json", dir.file("s.json"), "--quiet"},
      dir.file("out.txt"));
  ASSERT_EQ(run.wait(60'000), 3) << run.output();
  std::ifstream in(dir.file("s.json"));
  const json s = json::parse(in);
  SCOPED_TRACE(s.dump(2));

  EXPECT_EQ(s["verdict"], "harness_limited");
  const std::regex want(
      R"(^the embedded mock ran out of file descriptors \(limit 256\) at \d+\.\d s: up to \d+ connections waited to be accepted.*)");
  bool named = false;
  for (const auto& reason : s["verdict_reasons"])
    named |= std::regex_match(reason.get<std::string>(), want);
  EXPECT_TRUE(named);
  // What the mock never took is not the server's timeout; any timeout left says why it was one.
  const json& errors = s["errors"];
  EXPECT_GT(errors.value("harness_limit", 0), 0);
  if (errors.contains("timeout")) {
    const json& samples = s["failure_samples"];
    ASSERT_TRUE(samples.contains("timeout"));
    EXPECT_NE(samples["timeout"]["reason"].get<std::string>().find("embedded mock"),
              std::string::npos);
  }
  uint64_t failed = 0;
  for (const auto& [k, v] : errors.items()) failed += v.get<uint64_t>();
  EXPECT_EQ(s["completed"].get<uint64_t>() + failed + s["not_sent"].get<uint64_t>(),
            s["planned"].get<uint64_t>());
  EXPECT_EQ(queryInt(dir.file("runs.db"), "SELECT count(*) FROM requests WHERE error_class = 10"),
            errors.value("harness_limit", int64_t{0}));
}
