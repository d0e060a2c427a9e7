// `plumbline mock --realtime PRIO`: every thread of the mock runs SCHED_FIFO at PRIO and it
// serves as usual; where this machine does not allow it, the mock says why and exits 1.
// `plumbline mock --slice-us US`: every event loop asks for a US µs scheduler slice.
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <thread>
#include <vector>

#include "core/util/scheduler_slice.h"
#include "tests/integration/cli_process.h"
#include "tests/integration/mock_http.h"

namespace {

/// Whether a thread of this process may switch itself to SCHED_FIFO at `priority` (the mock's
/// main thread asks the same of the kernel).
bool fifoAllowed(int priority) {
  int result = -1;
  std::thread probe([&] {
    sched_param p{};
    p.sched_priority = priority;
    result = pthread_setschedparam(pthread_self(), SCHED_FIFO, &p);
  });
  probe.join();
  return result == 0;
}

/// A `plumbline mock` child with its stdout on a pipe; SIGTERM and reaped when destroyed.
struct MockChild {
  pid_t pid = -1;
  int out = -1;

  explicit MockChild(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return;
    pid = fork();
    if (pid == 0) {
      dup2(fds[1], STDOUT_FILENO);
      std::vector<char*> argv{const_cast<char*>(PLUMBLINE_BIN), const_cast<char*>("mock")};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(PLUMBLINE_BIN, argv.data());
      _exit(127);
    }
    close(fds[1]);
    out = fds[0];
  }
  ~MockChild() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
    if (out >= 0) close(out);
  }
  /// The first line it printed (its address), or "" after 5 s.
  std::string firstLine() {
    std::string line;
    char c = 0;
    pollfd p{out, POLLIN, 0};
    while (poll(&p, 1, 5000) == 1 && read(out, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  /// The scheduler slice each of its threads runs with.
  std::vector<int64_t> threadSlices() const {
    std::vector<int64_t> slices;
    for (int tid : threadIds()) slices.push_back(plumbline::util::schedulerSliceOf(tid));
    return slices;
  }
  /// Its threads' ids (/proc/PID/task).
  std::vector<int> threadIds() const {
    std::vector<int> ids;
    const std::string dir = "/proc/" + std::to_string(pid) + "/task";
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) return ids;
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') ids.push_back(std::stoi(e->d_name));
    closedir(d);
    return ids;
  }
  /// The scheduling policy of each of its threads.
  std::vector<int> threadPolicies() const {
    std::vector<int> policies;
    for (int tid : threadIds()) policies.push_back(sched_getscheduler(static_cast<pid_t>(tid)));
    return policies;
  }
};

TEST(MockRealtime, EveryLoopRunsSchedFifoOrTheMockSaysWhyNot) {
  if (fifoAllowed(1)) {
    MockChild mock(
        {"--listen", "127.0.0.1:0", "--threads", "2", "--preset", "instant", "--realtime", "1"});
    const std::string url = mock.firstLine();
    ASSERT_EQ(url.rfind("http://127.0.0.1:", 0), 0u) << url;
    const std::vector<int> policies = mock.threadPolicies();
    ASSERT_GE(policies.size(), 3u);  // the main thread and two loops
    for (int policy : policies) EXPECT_EQ(policy, SCHED_FIFO);
    const auto r = plumbline::test::httpPost(url + "/v1/completions",
                                             R"({"prompt":"x","max_tokens":2,"ignore_eos":true})");
    EXPECT_EQ(r.status, 200);
  } else {
    const auto r = plumbline::test::runCli("mock --listen 127.0.0.1:0 --realtime 1");
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("--realtime 1"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("ulimit -r"), std::string::npos) << r.output;
  }
}

TEST(MockRealtime, APriorityOutsideOneToNinetyNineIsAUsageError) {
  for (const char* bad : {"0", "100", "-3"}) {
    const auto r =
        plumbline::test::runCli(std::string("mock --listen 127.0.0.1:0 --realtime ") + bad);
    EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--realtime"), std::string::npos) << r.output;
  }
  EXPECT_EQ(plumbline::test::runCli("mock --listen 127.0.0.1:0 --realtime high").exitCode, 2);
}

/// Whether this kernel keeps a thread's requested slice (EEVDF custom slices, Linux 6.12+).
bool kernelKeepsSlices() {
  int64_t kept = -1;
  std::thread probe([&] {
    if (plumbline::util::setSchedulerSlice(300'000).empty())
      kept = plumbline::util::schedulerSliceOf(0);
  });
  probe.join();
  return kept == 300'000;
}

TEST(MockSlice, EveryLoopAsksForItsSliceAndServes) {
  if (!kernelKeepsSlices())
    GTEST_SKIP() << "this kernel keeps no per-thread slices (EEVDF custom slices: Linux 6.12+)";
  MockChild mock(
      {"--listen", "127.0.0.1:0", "--threads", "2", "--preset", "instant", "--slice-us", "300"});
  const std::string url = mock.firstLine();
  ASSERT_EQ(url.rfind("http://127.0.0.1:", 0), 0u) << url;
  int loops = 0, others = 0;
  for (int64_t slice : mock.threadSlices()) (slice == 300'000 ? loops : others) += 1;
  EXPECT_EQ(loops, 2);   // each loop asked in its own thread
  EXPECT_GE(others, 1);  // the main thread, which only waits for signals, kept the default
  const auto r = plumbline::test::httpPost(url + "/v1/completions",
                                           R"({"prompt":"x","max_tokens":2,"ignore_eos":true})");
  EXPECT_EQ(r.status, 200);
  MockChild plain({"--listen", "127.0.0.1:0", "--threads", "1", "--preset", "instant"});
  ASSERT_FALSE(plain.firstLine().empty());
  for (int64_t slice : plain.threadSlices()) EXPECT_NE(slice, 300'000);  // not asked: the kernel's
}

TEST(MockSlice, ASliceOutsideTheKernelsBoundsOrWithRealtimeIsAUsageError) {
  for (const char* bad : {"99", "100001", "-5", "0"}) {
    const auto r =
        plumbline::test::runCli(std::string("mock --listen 127.0.0.1:0 --slice-us ") + bad);
    EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--slice-us"), std::string::npos) << r.output;
  }
  EXPECT_EQ(plumbline::test::runCli("mock --listen 127.0.0.1:0 --slice-us fast").exitCode, 2);
  const auto both =
      plumbline::test::runCli("mock --listen 127.0.0.1:0 --slice-us 100 --realtime 1");
  EXPECT_EQ(both.exitCode, 2) << both.output;
  EXPECT_NE(both.output.find("--realtime replaces it"), std::string::npos) << both.output;
}

}  // namespace
