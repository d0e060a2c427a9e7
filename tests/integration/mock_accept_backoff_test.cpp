// The mock out of file descriptors: connections it cannot accept wait in the backlog, and it
// pauses accepting instead of retrying at once (which spun a core and printed a warning per
// retry, millions of lines, in RunHonesty's 100,000 rps run). Once descriptors are free again
// it serves the waiting connections.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/child_process.h"
#include "tests/integration/mock_http.h"

using plumbline::test::ChildProcess;
using plumbline::test::TempDir;

namespace {

int connectTo(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/// utime + stime of a process, in seconds, from /proc/PID/stat.
double cpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream rest(all.substr(all.rfind(')') + 2));
  std::string field;
  long long ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i)
    if (i == 14 || i == 15) ticks += std::stoll(field);
  return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

int portOf(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

}  // namespace

TEST(MockAcceptBackoff, OutOfDescriptorsItPausesAcceptingAndServesOnceTheyAreFree) {
  TempDir dir;
  ChildProcess mock({"/usr/bin/prlimit", "--nofile=48:48", PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0",
                     "--threads", "1"},
                    dir.file("mock.txt"));
  const std::string url = plumbline::test::firstLineOf(mock);
  ASSERT_FALSE(url.empty()) << mock.output();
  const int port = portOf(url);

  // Far more idle connections than the mock has descriptors: the rest wait in its backlog.
  std::vector<int> held;
  for (int i = 0; i < 120; ++i)
    if (const int fd = connectTo(port); fd >= 0) held.push_back(fd);
  ASSERT_GE(held.size(), 60u);

  const double before = cpuSeconds(mock.pid());
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const double used = cpuSeconds(mock.pid()) - before;
  // A loop retrying accept() at once burns the whole 2 s; pausing 10 ms at a time costs
  // a few ms. 0.5 s leaves room for a loaded machine without letting a spin pass.
  EXPECT_LT(used, 0.5) << "the mock spun on accept() while out of descriptors";

  for (int fd : held) close(fd);
  held.clear();
  // Once its descriptors are back, it accepts and answers again.
  const auto reply = plumbline::test::httpGet(url + "/mock/stats");
  EXPECT_EQ(reply.status, 200) << reply.body;

  mock.signal(SIGTERM);
  mock.wait(5000);
  const std::string out = mock.output();
  EXPECT_NE(out.find("pausing accepts"), std::string::npos) << out;
  EXPECT_EQ(out.find("Error from accept() call"), std::string::npos) << "libevent's per-retry warning";
  // At most one line a second about it (plus the final stats line and the URL).
  size_t lines = 0;
  for (size_t at = out.find("pausing accepts"); at != std::string::npos; at = out.find("pausing accepts", at + 1)) ++lines;
  EXPECT_LE(lines, 4u) << out;
}
