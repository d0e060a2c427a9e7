#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/store/database.h"
#include "core/store/run_reader.h"
#include "core/store/run_writer.h"
#include "core/store/store_error.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

constexpr size_t kBatch = 500;

// Polls (read-only, as the studio would) until the writer has committed some requests.
int64_t waitForCommittedRows(const std::string& path, std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      RunReader reader(path);
      auto runs = reader.listRuns();
      if (!runs.empty()) {
        if (int64_t n = reader.requestCount(runs[0].id); n > 0) return n;
      }
    } catch (const StoreError&) {
      // not created or not migrated yet
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

TEST(StoreCrash, KilledWriterKeepsWholeCommittedBatches) {
  testing::TempDir dir;
  std::string path = dir.file("runs.db");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    RunWriter writer(path, testing::sampleRunInfo());
    for (size_t i = 0;; i += kBatch) {
      writer.addRequests(testing::sampleRequests(kBatch, i));
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
  }
  int64_t seen = waitForCommittedRows(path, std::chrono::seconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(350));  // several commits later
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int wstatus = 0;
  ASSERT_EQ(waitpid(child, &wstatus, 0), child);
  ASSERT_TRUE(WIFSIGNALED(wstatus));
  ASSERT_GT(seen, 0) << "the child never committed";

  {
    Database db = Database::open(path, Database::Mode::ReadOnly);
    Statement check = db.prepare("PRAGMA integrity_check");
    ASSERT_TRUE(check.step());
    EXPECT_EQ(check.columnText(0), "ok");
  }
  RunReader reader(path);
  auto runs = reader.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, "incomplete");
  int64_t rows = reader.requestCount(runs[0].id);
  EXPECT_GE(rows, seen);
  EXPECT_EQ(rows % static_cast<int64_t>(kBatch), 0) << rows;
  // The rows are the batches in order, intact.
  size_t i = 0;
  auto expected = testing::sampleRequests(static_cast<size_t>(rows));
  reader.forEachRequest(runs[0].id, [&](const metrics::RequestRecord& r) {
    if (i < expected.size()) testing::expectSameRequest(r, expected[i]);
    ++i;
  });
  EXPECT_EQ(i, static_cast<size_t>(rows));
}

}  // namespace
}  // namespace plumbline::store
