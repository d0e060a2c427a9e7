// The worker's own reading of how long it waited, runnable, for a CPU that other work held.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/util/cpu_wait.h"

using plumbline::util::CpuWait;

namespace {
int64_t parse(const char* text) {
  return CpuWait::parseWaitNs(text, static_cast<long>(std::strlen(text)));
}
}  // namespace

TEST(CpuWait, ReadsTheSecondFieldOfSchedstat) {
  EXPECT_EQ(parse("253385369 492739 117\n"), 492739);
  EXPECT_EQ(parse("0 0 1"), 0);
  EXPECT_EQ(parse("56249382602 6144536932 1012150\n"), 6144536932);
}

TEST(CpuWait, AnythingElseIsUnknown) {
  for (const char* bad : {"", "\n", "1 2", "1 2 ", "1  2 3", " 1 2 3", "1 -2 3", "1 +2 3", "a b c",
                          "1 2 3 4", "1 2 3x", "1 99999999999999999999 3", "1\t2\t3"})
    EXPECT_EQ(parse(bad), -1) << '"' << bad << '"';
  EXPECT_EQ(CpuWait::parseWaitNs(nullptr, 5), -1);
}

// Two threads kept runnable on one CPU for 200 ms: each waits for the other's slices, and the
// reading grows by well over a millisecond. Where the kernel keeps no scheduler statistics the
// reading says "unknown" rather than 0.
TEST(CpuWait, GrowsWhileAnotherThreadHoldsTheCpu) {
  const int cpu = sched_getcpu();
  ASSERT_GE(cpu, 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  cpu_set_t before;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
  if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0)
    GTEST_SKIP() << "cannot pin this thread";
  CpuWait wait;
  if (!wait.available()) {
    pthread_setaffinity_np(pthread_self(), sizeof before, &before);
    EXPECT_EQ(wait.totalNs(), -1);
    GTEST_SKIP() << "this kernel keeps no run-queue statistics";
  }
  const int64_t start = wait.totalNs();
  ASSERT_GE(start, 0);
  std::atomic<bool> stop{false};
  std::thread rival([&] {
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  while (std::chrono::steady_clock::now() < until) {
  }
  const int64_t end = wait.totalNs();
  stop = true;
  rival.join();
  pthread_setaffinity_np(pthread_self(), sizeof before, &before);
  EXPECT_GT(end - start, 1'000'000) << "waited " << end - start << " ns sharing one CPU for 200 ms";
}
