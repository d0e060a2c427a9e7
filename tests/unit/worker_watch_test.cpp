// The coordinator's check that workers still answer: silence past the limit, or a stop's
// deadline passed, makes a worker overdue once; its own held loop never blames a worker.
#include "core/engine/worker_watch.h"

#include <gtest/gtest.h>

using plumbline::engine::WorkerWatch;

namespace {
constexpr int64_t kMs = 1'000'000;
}

TEST(WorkerWatch, AWorkerThatKeepsReportingIsNeverOverdue) {
  WorkerWatch watch(2, 5000 * kMs);
  for (int64_t t = 0; t <= 20'000 * kMs; t += 20 * kMs) {
    if (t % (250 * kMs) == 0) {
      watch.heard(0, t);
      watch.heard(1, t);
    }
    EXPECT_TRUE(watch.check(t).empty()) << t;
  }
}

TEST(WorkerWatch, ASilentWorkerIsOverdueOnceWithItsLastReport) {
  WorkerWatch watch(2, 5000 * kMs);
  std::vector<WorkerWatch::Overdue> seen;
  for (int64_t t = 0; t <= 10'000 * kMs; t += 20 * kMs) {
    watch.heard(0, t);
    if (t <= 3200 * kMs) watch.heard(1, t);
    for (const auto& o : watch.check(t)) {
      seen.push_back(o);
      EXPECT_GT(t, 8200 * kMs);
      EXPECT_LE(t, 8220 * kMs);
    }
  }
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].worker, 1u);
  EXPECT_FALSE(seen[0].pastDeadline);
  EXPECT_EQ(seen[0].lastHeardNs, 3200 * kMs);
}

TEST(WorkerWatch, AWorkerStillLoadingBeforeItsFirstReportHasLonger) {
  // Its config names a tokenizer and a dataset: loading them may run past t0 + 5 s on a loaded
  // machine. That is a late start (late sends), not a lost worker.
  WorkerWatch watch(2, 5000 * kMs);
  watch.heard(1, 0);
  for (int64_t t = 0; t <= 20'000 * kMs; t += 250 * kMs) {
    watch.heard(1, t);
    EXPECT_TRUE(watch.check(t).empty()) << t;
  }
  watch.heard(0, 20'000 * kMs);  // its first report: from now on, 5 s
  std::vector<int64_t> overdueAt;
  for (int64_t t = 20'000 * kMs; t <= 26'000 * kMs; t += 250 * kMs) {
    watch.heard(1, t);
    for (const auto& o : watch.check(t)) {
      EXPECT_EQ(o.worker, 0u);
      overdueAt.push_back(t);
    }
  }
  ASSERT_EQ(overdueAt.size(), 1u);
  EXPECT_EQ(overdueAt[0], 25'250 * kMs);
  // Never reporting at all still ends, at the longer limit.
  WorkerWatch silent(1, 5000 * kMs);
  for (int64_t t = 0; t < WorkerWatch::kFirstReportLimitNs; t += 500 * kMs)
    EXPECT_TRUE(silent.check(t).empty()) << t;
  EXPECT_EQ(silent.check(WorkerWatch::kFirstReportLimitNs + 500 * kMs).size(), 1u);
}

TEST(WorkerWatch, TheCoordinatorsOwnHoldRestartsEverySilence) {
  WorkerWatch watch(1, 5000 * kMs);
  watch.heard(0, 0);
  EXPECT_TRUE(watch.check(100 * kMs).empty());
  // The coordinator was suspended 6 s: the worker's frames wait unread in the socket.
  EXPECT_TRUE(watch.check(6100 * kMs).empty());
  EXPECT_TRUE(watch.check(6120 * kMs).empty());
  EXPECT_EQ(watch.check(11'200 * kMs).size(), 0u);  // ticks a second apart count as held too
}

TEST(WorkerWatch, AStopDeadlineEndsEveryWorkerStillRunningHoweverLively) {
  WorkerWatch watch(3, 5000 * kMs);
  watch.ended(2);
  watch.endBy(3000 * kMs);
  watch.endBy(9000 * kMs);  // a later deadline does not postpone the first
  EXPECT_EQ(watch.deadlineNs(), 3000 * kMs);
  watch.heard(0, 2990 * kMs);
  watch.heard(1, 2990 * kMs);
  EXPECT_TRUE(watch.check(2990 * kMs).empty());
  const auto overdue = watch.check(3010 * kMs);
  ASSERT_EQ(overdue.size(), 2u);
  EXPECT_TRUE(overdue[0].pastDeadline);
  EXPECT_EQ(overdue[1].worker, 1u);
  EXPECT_TRUE(watch.check(3030 * kMs).empty());
}

// Silent for a second, a worker is quiet (said once, and once more when it answers again);
// before its first report, or once ended, it is not.
TEST(WorkerWatch, AWorkerSilentForASecondIsQuietUntilItAnswers) {
  WorkerWatch watch(2, 5000 * kMs);
  EXPECT_FALSE(watch.quiet(1, 3000 * kMs));  // no report yet: still starting
  std::vector<std::pair<int64_t, bool>> changes;
  for (int64_t t = 0; t <= 4000 * kMs; t += 20 * kMs) {
    watch.heard(0, t);
    if (t <= 1000 * kMs || t >= 3000 * kMs) watch.heard(1, t);
    EXPECT_TRUE(watch.check(t).empty());
    for (const auto& q : watch.quietChanges(t)) {
      EXPECT_EQ(q.worker, 1u);
      changes.emplace_back(t, q.quiet);
    }
    EXPECT_EQ(watch.quiet(1, t), t > 2000 * kMs && t < 3000 * kMs) << t;
    EXPECT_FALSE(watch.quiet(0, t));
  }
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0], std::make_pair(2020 * kMs, true));
  EXPECT_EQ(changes[1], std::make_pair(3000 * kMs, false));
  watch.ended(1);
  watch.heard(0, 9000 * kMs);
  EXPECT_FALSE(watch.quiet(1, 9000 * kMs));
  EXPECT_TRUE(watch.quietChanges(9000 * kMs).empty());
}
