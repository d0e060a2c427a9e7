// When a process started, read from /proc: what tells a run's coordinator from a process that
// was given its pid after it died.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "core/util/process_start.h"

using plumbline::util::processStartWallNs;
using plumbline::util::statStartTicks;

namespace {
std::optional<int64_t> ticks(const char* line) {
  return statStartTicks(line, static_cast<int64_t>(std::strlen(line)));
}
int64_t wallNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace

TEST(ProcessStart, ReadsTheTwentySecondFieldCountedAfterTheCommand) {
  EXPECT_EQ(ticks("4242 (plumbline) S 1 4242 4242 0 -1 4194560 300 0 0 0 5 3 0 0 20 0 3 0 "
                  "5521180 300000000 2000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1\n"),
            5521180);
  // A command name may hold spaces and parentheses of its own.
  EXPECT_EQ(ticks("7 (a) b (c)) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0 0\n"), 99);
}

TEST(ProcessStart, ALineWithoutTheFieldIsUnknown) {
  for (const char* bad :
       {"", "7 (x", "7 (x) S 1 2 3", "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 ",
        "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9x 0",
        "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 -5 0"})
    EXPECT_FALSE(ticks(bad).has_value()) << '"' << bad << '"';
}

TEST(ProcessStart, AProcessStartedBeforeNowAndAChildAfterItsParent) {
  const int64_t before = wallNowNs();
  const auto self = processStartWallNs(getpid());
  ASSERT_TRUE(self.has_value());
  EXPECT_LE(*self, before + 20'000'000);         // ticks are 10 ms
  EXPECT_GT(*self, before - 3'600'000'000'000);  // this test process is not hours old

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  const auto started = processStartWallNs(child);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_TRUE(started.has_value());
  EXPECT_GE(*started, before - 20'000'000);
  EXPECT_LE(*started, wallNowNs() + 20'000'000);
  EXPECT_FALSE(processStartWallNs(child).has_value());  // reaped: no such process
  EXPECT_FALSE(processStartWallNs(0).has_value());
}
