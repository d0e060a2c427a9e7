// A worker held (stopped, or without a CPU) across a request's timeout after the request's
// connect began wakes to a connection the server has since answered. The request is not written
// late, and the server, which never got it, is not blamed for it: it is the harness's failure
// (class harness_limit), the achieved rate leaves it out, and the verdict is harness_limited,
// naming it. Here the server answers no connect at first (its accept queue is full, so the
// kernel drops the SYNs); it opens while the worker is stopped, and the kernel's SYN
// retransmit, 1 s after the first, completes the connects during the stop.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tests/integration/child_process.h"
#include "tests/integration/db_query.h"
#include "tests/integration/driver_client.h"
#include "tests/integration/process_tree.h"
#include "tests/integration/scripted_http_server.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::childrenOf;
using plumbline::test::queryInt;
using plumbline::test::ScriptedHttpServer;
using plumbline::test::TempDir;
using plumbline::test::driver_client::okReply;

namespace {
/// Sockets of process `pid` still connecting (SYN_SENT) to local port `port` (/proc/net/tcp).
int connectingTo(pid_t pid, uint16_t port) {
  std::set<std::string> inodes;
  const std::string fds = "/proc/" + std::to_string(pid) + "/fd";
  if (DIR* d = opendir(fds.c_str())) {
    while (const dirent* e = readdir(d)) {
      char link[64];
      const ssize_t n = readlink((fds + "/" + e->d_name).c_str(), link, sizeof link - 1);
      const std::string_view target(link, n > 0 ? static_cast<size_t>(n) : 0);
      if (target.starts_with("socket:[") && target.ends_with("]"))
        inodes.emplace(target.substr(8, target.size() - 9));
    }
    closedir(d);
  }
  char portHex[8];
  std::snprintf(portHex, sizeof portHex, ":%04X", port);
  std::istringstream table(plumbline::test::readProcFile("/proc/net/tcp"));
  std::string line;
  std::getline(table, line);  // the header
  int connecting = 0;
  while (std::getline(table, line)) {
    std::istringstream row(line);
    std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
    row >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >>
        inode;
    if (state == "02" && remote.ends_with(portHex) && inodes.count(inode) > 0) ++connecting;
  }
  return connecting;
}

void expectARequestItsHeldWorkerNeverWroteIsAHarnessLimit() {
  ScriptedHttpServer server(
      [](int, int, const std::string&) {
        return std::optional<ScriptedHttpServer::Reply>(okReply());
      },
      {.greeting = {}, .gated = true});
  TempDir dir;
  const json w{
      {"plumbline", 1},
      {"name", "held connect"},
      {"target", {{"url", server.url()}, {"model", "m"}, {"stream", false}, {"timeout_s", 1.5}}},
      {"load",
       {{"arrival", "constant"},
        {"seed", 3},
        {"stages", json::array({{{"rate", 4}, {"duration_s", 4}}})}}},
      {"requests",
       {{"input_tokens", {{"dist", "fixed"}, {"value", 8}}},
        {"output_tokens", {{"dist", "fixed"}, {"value", 4}}}}}};
  std::ofstream(dir.file("w.json")) << w.dump();
  ChildProcess run({PLUMBLINE_BIN, "run", dir.file("w.json"), "--db", dir.file("runs.db"),
                    "--workers", "1", "--summary-json", dir.file("s.json")},
                   dir.file("out.txt"));
  std::vector<pid_t> workers;
  for (int i = 0; i < 400 && workers.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    workers = childrenOf(run.pid(), " worker ");
  }
  ASSERT_EQ(workers.size(), 1u) << run.output();
  // Requests go out and wait on their connects (a preconnect may be among them); then the worker
  // is stopped for 2.5 s, and the server opens as the stop begins. Each request connecting then
  // is connected during the stop by its SYN's retransmit (1 s or 3 s after it was sent), and
  // its 1.5 s timeout passes before the worker runs again.
  for (int i = 0; i < 400 && connectingTo(workers[0], server.port()) < 4; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_GE(connectingTo(workers[0], server.port()), 4) << run.output();
  kill(workers[0], SIGSTOP);
  server.openGate();
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  kill(workers[0], SIGCONT);
  ASSERT_EQ(run.wait(30'000), 3) << run.output();
  std::ifstream in(dir.file("s.json"));
  const json s = json::parse(in, nullptr, false);
  ASSERT_TRUE(s.is_object()) << run.output();

  const std::string db = dir.file("runs.db");
  const int64_t notWritten = queryInt(db, "SELECT count(*) FROM requests WHERE error_class = 10");
  EXPECT_GE(notWritten, 2) << s.dump(2);
  EXPECT_EQ(s.at("errors").value("harness_limit", 0), notWritten) << s.dump(2);
  // None of them was written, then or later: the server got exactly the requests written.
  EXPECT_EQ(
      queryInt(db, "SELECT count(*) FROM requests WHERE error_class = 10 AND upload_end_ns >= 0"),
      0);
  EXPECT_EQ(queryInt(db, "SELECT count(*) FROM requests WHERE upload_end_ns >= 0"),
            server.requests())
      << plumbline::test::queryText(
             db,
             "SELECT group_concat(error_class || '/' || (send_ns/1000000) || '/' || "
             "(upload_end_ns/1000000) || '/' || (end_ns/1000000), ' ') FROM requests")
      << s.dump(2);
  // Offered to the target: the requests sent, less those that never reached it.
  EXPECT_NEAR(s.at("achieved_rps").get<double>() * s.at("duration_s").get<double>(),
              s.at("sent").get<double>() - static_cast<double>(notWritten), 0.01)
      << s.dump(2);
  EXPECT_EQ(s.at("verdict"), "harness_limited") << s.dump(2);
  bool named = false;
  for (const auto& reason : s.at("verdict_reasons"))
    named = named || reason.get<std::string>() ==
                         "requests not written before their timeout in worker 0: its event loop "
                         "was held (stopped, or without a CPU) after their connections were "
                         "ready, so the target never got them";
  EXPECT_TRUE(named) << s.dump(2);
  // Said as it happened, too.
  EXPECT_NE(
      run.output().find("harness limit: requests not written before their timeout in worker 0"),
      std::string::npos)
      << run.output();
  // Every planned request is accounted for.
  uint64_t failed = 0;
  for (const auto& [cls, n] : s.at("errors").items()) failed += n.get<uint64_t>();
  EXPECT_EQ(s.at("completed").get<uint64_t>() + failed + s.at("not_sent").get<uint64_t>(),
            s.at("planned").get<uint64_t>())
      << s.dump(2);
}
}  // namespace

TEST(HeldConnectRun, ARequestItsHeldWorkerNeverWroteIsAHarnessLimit) {
  expectARequestItsHeldWorkerNeverWroteIsAHarnessLimit();
}

// The same through libcurl's client (an https target's), which would have written it late.
TEST(HeldConnectRun, ARequestItsHeldWorkerNeverWroteIsAHarnessLimitThroughLibcurlToo) {
  setenv("PLUMBLINE_HTTP_CLIENT", "curl", 1);
  expectARequestItsHeldWorkerNeverWroteIsAHarnessLimit();
  unsetenv("PLUMBLINE_HTTP_CLIENT");
}
