#include "core/util/background_thread.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/types.h>

#include <dirent.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "core/store/run_writer.h"
#include "store_test_support.h"

namespace plumbline {
namespace {

/// The scheduling policy of this process's thread named `name`, read from /proc.
std::optional<int> policyOfThreadNamed(const std::string& name) {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return std::nullopt;
  std::optional<int> policy;
  while (dirent* e = readdir(tasks)) {
    const std::string tid = e->d_name;
    if (tid == "." || tid == "..") continue;
    std::string comm;
    std::getline(std::ifstream("/proc/self/task/" + tid + "/comm"), comm);
    if (comm == name) policy = sched_getscheduler(static_cast<pid_t>(std::stoi(tid)));
  }
  closedir(tasks);
  return policy;
}

TEST(BackgroundThread, IsNamedAndNeverPreemptsOnWakeUp) {
  bool accepted = false;
  int policy = -1;
  char name[16] = {};
  std::thread t([&] {
    accepted = util::markBackgroundThread("pl-bg-test");
    policy = sched_getscheduler(0);
    pthread_getname_np(pthread_self(), name, sizeof name);
  });
  t.join();
  EXPECT_TRUE(accepted);  // SCHED_BATCH needs no privilege
  EXPECT_EQ(policy, SCHED_BATCH);
  EXPECT_STREQ(name, "pl-bg-test");
  EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);  // the caller's own thread is left alone
}

TEST(BackgroundThread, ScopedSchedulingGivesThePreviousPolicyBack) {
  int during = -1, after = -1;
  bool active = false;
  std::thread t([&] {
    {
      const util::BackgroundScheduling background;
      active = background.active();
      during = sched_getscheduler(0);
    }
    after = sched_getscheduler(0);
  });
  t.join();
  EXPECT_TRUE(active);
  EXPECT_EQ(during, SCHED_BATCH);
  EXPECT_EQ(after, SCHED_OTHER);  // a process forked after the run is not left with it
}

TEST(BackgroundThread, TheRunsSqliteWriterIsABackgroundThread) {
  store::testing::TempDir dir;
  store::RunWriter writer(dir.file("runs.db"), store::testing::sampleRunInfo());
  std::optional<int> policy;  // the thread names itself when it starts: wait for it (bounded)
  for (int i = 0; i < 200 && !policy; ++i) {
    policy = policyOfThreadNamed("pl-writer");
    if (!policy) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(policy, std::optional<int>(SCHED_BATCH));
}

}  // namespace
}  // namespace plumbline
