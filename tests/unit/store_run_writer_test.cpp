#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <thread>

#include "core/store/database.h"
#include "core/store/run_editor.h"
#include "core/store/run_reader.h"
#include "core/store/run_writer.h"
#include "core/store/runs_command.h"
#include "core/store/store_error.h"
#include "core/util/clock.h"
#include "core/util/process_start.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

using testing::TempDir;

WindowRow sampleWindow(int64_t idx) {
  WindowRow w;
  w.idx = idx;
  w.startNs = idx * 1'000'000'000;
  w.lengthNs = 1'000'000'000;
  w.planned = 100 + idx;
  w.sent = 99 + idx;
  w.completed = 95;
  w.errors = 3;
  w.errorsJson = R"({"timeout":2,"http_5xx":1})";
  w.inputTokens = 1234;
  w.outputTokens = 5678;
  w.inFlight = 7;
  w.ttftP50Ms = 12.5;
  w.ttftP99Ms = 80.25;
  w.itlP50Ms = 1.5;
  w.itlP99Ms = 4.75;
  w.e2eP50Ms = 300.125;
  w.e2eP99Ms = 900.5;
  w.sendLagP50Ms = 0.01;
  w.sendLagP99Ms = 0.2;
  w.sendLagMaxMs = 3.5;
  if (idx != 1) {  // window 1: no stream answered in it (NULL)
    w.ttfaP50Ms = 60.5 + static_cast<double>(idx);
    w.ttfaP99Ms = 120.75;
  }
  w.ttftFromPlannedP50Ms = 20.5;
  w.ttftFromPlannedP99Ms = 180.25;
  if (idx != 0) {  // window 0: none (NULL)
    w.e2eFromPlannedP50Ms = 310.5;
    w.e2eFromPlannedP99Ms = 1200.25;
  }
  if (idx != 2) {  // window 2: no stream of two tokens ended in it (NULL)
    w.tpotP50Ms = 1.25 + static_cast<double>(idx);
    w.tpotP99Ms = 3.5;
  }
  w.workerCpuMax = 0.93;
  w.workerCpuMean = 0.61;
  w.loopDelayMaxMs = 0.8;
  w.cpuWaitMaxMs = idx == 1 ? -1 : 24.5 + static_cast<double>(idx);  // window 1: unknown (NULL)
  w.handedLateMaxMs = idx == 2 ? 950.25 : 0;  // the coordinator held up in window 2
  if (idx != 1) w.sentDuring = 90 + idx;      // window 1: unknown (NULL)
  w.inFlightCapHits = idx % 2;
  w.workerDied = idx == 2;
  return w;
}

nlohmann::json sampleSummaryJson() {
  return {{"verdict", "harness_limited"},
          {"verdict_reasons", {"window 3 s: send lag p99 4.2 ms > 1 ms"}},
          {"planned", 1000},
          {"sent", 990},
          {"completed", 950},
          {"errors", {{"timeout", 30}, {"http_5xx", 10}}},
          {"requested_rps", 100.0},
          {"achieved_rps", 99.0},
          {"ttft_ms", {{"p50", 10.0}, {"p90", 20.0}, {"p99", 42.5}, {"max", 80.0}}},
          {"output_tokens_per_s", 1234.5},
          {"duration_s", 10.0},
          {"token_count_source", "server"}};
}

TEST(StoreRunWriter, RoundTripsRequestsWindowsAndHistograms) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  auto requests = testing::sampleRequests(10'000);
  const std::string blob("\x00\x01\xffhistogram\x00bytes", 17);
  const RunInfo info = testing::sampleRunInfo();
  int64_t id = 0;
  {
    RunWriter writer(path, info);
    id = writer.runId();
    EXPECT_GT(id, 0);
    for (size_t i = 0; i < requests.size(); i += 1000)
      writer.addRequests({requests.begin() + static_cast<long>(i),
                          requests.begin() + static_cast<long>(i + 1000)});
    for (int64_t w = 0; w < 3; ++w)
      writer.addWindow(sampleWindow(w), {{"ttft", blob + std::to_string(w)}, {"e2e", "e"}});
    writer.finish(sampleSummaryJson(), {{"ttft", blob}}, true);
  }
  RunReader reader(path);
  std::vector<metrics::RequestRecord> back;
  reader.forEachRequest(id, [&](const metrics::RequestRecord& r) { back.push_back(r); });
  ASSERT_EQ(back.size(), requests.size());
  for (size_t i = 0; i < back.size(); ++i) testing::expectSameRequest(back[i], requests[i]);
  EXPECT_EQ(reader.requestCount(id), 10'000);

  auto windows = reader.windows(id);
  ASSERT_EQ(windows.size(), 3u);
  for (int64_t w = 0; w < 3; ++w) EXPECT_EQ(windows[static_cast<size_t>(w)], sampleWindow(w));
  EXPECT_EQ(reader.histogram(id, "ttft", -1), blob);
  EXPECT_EQ(reader.histogram(id, "ttft", 1), blob + "1");
  EXPECT_EQ(reader.histogram(id, "e2e", 2), "e");
  EXPECT_FALSE(reader.histogram(id, "itl", -1).has_value());

  auto run = reader.getRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->name, info.name);
  EXPECT_EQ(run->workloadName, info.workloadName);
  EXPECT_EQ(nlohmann::json::parse(run->specJson), info.spec);
  EXPECT_EQ(run->targetUrl, info.targetUrl);
  EXPECT_EQ(run->model, info.model);
  EXPECT_EQ(run->t0WallNs, info.t0WallNs);
  EXPECT_EQ(run->coordinatorPid, getpid());
  EXPECT_FALSE(run->host.empty());
  EXPECT_EQ(run->createdAt.size(), 24u);  // 2024-05-01T12:34:56.789Z
  EXPECT_FALSE(reader.getRun(id + 1).has_value());
  ASSERT_EQ(reader.listRuns().size(), 1u);
}

// A request's hold of its worker's loop is stored with it, so the requests whose timings may
// include one can be found; a request without one is stored as 0 (NULL: stored before v10).
TEST(StoreRunWriter, EachRequestKeepsTheLoopHoldItWasInFlightAcross) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  std::vector<metrics::RequestRecord> requests(4);
  requests[0].heldNs = 55'100'000;  // across a 55.1 ms hold
  requests[1].heldNs = 0;           // across none
  requests[2].heldNs = 1'000'000;   // the shortest hold kept
  requests[3].heldNs = 80'000'000;  // held, but failed: not one of the completed
  requests[3].error = metrics::ErrorClass::Timeout;
  int64_t id = 0;
  {
    RunWriter writer(path, testing::sampleRunInfo());
    id = writer.runId();
    writer.addRequests(requests);
    writer.finish(sampleSummaryJson(), {}, true);
  }
  RunReader reader(path);
  std::vector<int64_t> back;
  reader.forEachRequest(id, [&](const metrics::RequestRecord& r) { back.push_back(r.heldNs); });
  EXPECT_EQ(back, (std::vector<int64_t>{55'100'000, 0, 1'000'000, 80'000'000}));
  EXPECT_EQ(reader.heldRequestCount(id, 10'000'000), 1);
  EXPECT_EQ(reader.heldRequestCount(id, 1'000'000), 2);
  Database db = Database::open(path, Database::Mode::ReadOnly);
  Statement s = db.prepare("SELECT count(*) FROM requests WHERE held_ns = 0");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.columnInt(0), 1);
}

// Rows go in blocks of 32 per statement and the rest one by one: batches just around a block
// (and the writer joining queued batches as it likes) keep every row, in order, column for column.
TEST(StoreRunWriter, KeepsEveryRowWhateverTheBatchSizes) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  std::vector<metrics::RequestRecord> all;
  int64_t id = 0;
  {
    RunWriter writer(path, testing::sampleRunInfo());
    id = writer.runId();
    for (size_t n : {1u, 31u, 32u, 33u, 63u, 64u, 65u, 0u, 97u, 2u}) {
      auto batch = testing::sampleRequests(n, all.size());
      all.insert(all.end(), batch.begin(), batch.end());
      writer.addRequests(std::move(batch));
    }
    writer.finish(sampleSummaryJson(), {}, true);
  }
  RunReader reader(path);
  std::vector<metrics::RequestRecord> back;
  reader.forEachRequest(id, [&](const metrics::RequestRecord& r) { back.push_back(r); });
  ASSERT_EQ(back.size(), all.size());
  for (size_t i = 0; i < back.size(); ++i) testing::expectSameRequest(back[i], all[i]);
}

TEST(StoreRunWriter, FinishSetsColumnsFromSummary) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = 0;
  {
    RunWriter writer(path, testing::sampleRunInfo());
    id = writer.runId();
    writer.finish(sampleSummaryJson(), {}, true);
  }
  auto run = RunReader(path).getRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, "complete");
  EXPECT_EQ(run->storedStatus, "complete");
  EXPECT_TRUE(run->endedAt.has_value());
  EXPECT_EQ(run->verdict, "harness_limited");
  EXPECT_EQ(nlohmann::json::parse(run->verdictReasonsJson.value()),
            sampleSummaryJson()["verdict_reasons"]);
  EXPECT_EQ(nlohmann::json::parse(run->summaryJson.value()), sampleSummaryJson());
  EXPECT_EQ(run->planned, 1000);
  EXPECT_EQ(run->sent, 990);
  EXPECT_EQ(run->completed, 950);
  EXPECT_EQ(run->errors, 40);
  EXPECT_EQ(run->requestedRps, 100.0);
  EXPECT_EQ(run->achievedRps, 99.0);
  EXPECT_EQ(run->ttftP99Ms, 42.5);
  EXPECT_EQ(run->outputTokensPerS, 1234.5);
  EXPECT_EQ(run->durationS, 10.0);
}

TEST(StoreRunWriter, FinishIncompleteAndNotTwice) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  RunWriter writer(path, testing::sampleRunInfo());
  writer.finish({{"verdict", "kept_up"}}, {}, false);
  EXPECT_EQ(RunReader(path).getRun(writer.runId())->status, "incomplete");
  EXPECT_THROW(writer.finish({}, {}, true), StoreError);
  EXPECT_THROW(writer.addRequests(testing::sampleRequests(1)), StoreError);
}

TEST(StoreRunWriter, DestructorFlushesAndLeavesRunning) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = 0;
  {
    RunWriter writer(path, testing::sampleRunInfo());
    id = writer.runId();
    writer.addRequests(testing::sampleRequests(500));
    writer.addWindow(sampleWindow(0));
  }
  RunReader reader(path);
  EXPECT_EQ(reader.requestCount(id), 500);
  EXPECT_EQ(reader.windows(id).size(), 1u);
  auto run = reader.getRun(id);
  EXPECT_EQ(run->storedStatus, "running");
  EXPECT_EQ(run->status, "running");  // this process, its coordinator, is alive
  EXPECT_FALSE(run->verdict.has_value());
}

TEST(StoreRunWriter, T0OnTheWallClockReplacesTheProvisionalOneAndSurvivesAKill) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  const RunInfo info = testing::sampleRunInfo();
  int64_t id = 0;
  {
    RunWriter writer(path, info);  // the row holds the time the run was created
    id = writer.runId();
    EXPECT_EQ(RunReader(path).getRun(id)->t0WallNs, info.t0WallNs);
    writer.setT0Wall(info.t0WallNs + 123'456'789);  // t0 fixed once the workers are up
    writer.addRequests(testing::sampleRequests(3));
  }  // no finish(): as when the run is killed
  EXPECT_EQ(RunReader(path).getRun(id)->t0WallNs, info.t0WallNs + 123'456'789);
}

TEST(StoreRunWriter, ALockHeldByAnotherConnectionIsWaitedOutAndNothingIsLost) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = 0;
  {
    RunWriter writer(path, testing::sampleRunInfo());
    id = writer.runId();
    {
      // Another process's write transaction, held past SQLite's 5 s busy timeout.
      Database other = Database::open(path, Database::Mode::ReadWrite);
      other.exec("BEGIN IMMEDIATE");
      writer.addRequests(testing::sampleRequests(300));
      std::this_thread::sleep_for(std::chrono::milliseconds(6500));
      writer.addRequests(testing::sampleRequests(200));  // queued while the writer waits
      other.exec("COMMIT");
    }
    writer.finish({{"verdict", "kept_up"}}, {}, true);
    EXPECT_GT(writer.lockWaitNs(), 5'000'000'000);
  }
  RunReader reader(path);
  EXPECT_EQ(reader.requestCount(id), 500);
  EXPECT_EQ(reader.getRun(id)->status, "complete");
}

// finish() waiting for a lock says how long, and can give the wait up (QA: a run's end waited
// silently for up to 10 minutes, and Ctrl-C did not end the wait).
TEST(StoreRunWriter, AWaitForALockAtTheEndIsToldAndCanBeGivenUp) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  RunWriter writer(path, testing::sampleRunInfo());
  const int64_t id = writer.runId();
  writer.addRequests(testing::sampleRequests(40));
  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // committed before the lock
  Database other = Database::open(path, Database::Mode::ReadWrite);
  other.exec("BEGIN IMMEDIATE");
  writer.addRequests(testing::sampleRequests(10));
  double longest = 0;
  int calls = 0;
  try {
    // Held for good: without giving up, finish() would wait kBusyPatience (10 min).
    writer.finish({{"verdict", "kept_up"}}, {}, true, [&](double lockWaitS) {
      ++calls;
      longest = std::max(longest, lockWaitS);
      return lockWaitS < 0.6;
    });
    FAIL() << "finish() recorded the run though another connection held the lock";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.kind(), StoreErrorKind::Busy);
    EXPECT_NE(std::string(e.what()).find("gave up waiting for another process's lock"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_GE(longest, 0.6);
  EXPECT_GE(calls, 2);
  other.exec("COMMIT");
  RunReader reader(path);
  EXPECT_EQ(reader.requestCount(id), 40);  // what was committed stays
  EXPECT_EQ(reader.getRun(id)->storedStatus, "running");
}

TEST(StoreRunWriter, ADamagedRunsTableIsRefusedBeforeARunAndNamedWhenARunCannotBeRead) {
  // QA: a database whose last pages were overwritten took a new run under an id read from the
  // damaged page (16396657969), and `runs show 1` said "no run with id 1".
  TempDir dir;
  std::string path = dir.file("runs.db");
  for (int i = 0; i < 2; ++i) {
    RunWriter writer(path, testing::sampleRunInfo());
    writer.addRequests(testing::sampleRequests(10));
    writer.finish(sampleSummaryJson(), {}, true);
  }
  int64_t rootPage = 0, pageSize = 0;
  {
    Database db = Database::open(path, Database::Mode::ReadWrite);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    Statement root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'runs'");
    ASSERT_TRUE(root.step());
    rootPage = root.columnInt(0);
    Statement size = db.prepare("PRAGMA page_size");
    ASSERT_TRUE(size.step());
    pageSize = size.columnInt(0);
  }
  EXPECT_EQ(RunReader(path).damage(), "");
  {
    // The runs table's page, past its header, overwritten with bytes that are no b-tree.
    FILE* f = std::fopen(path.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, static_cast<long>((rootPage - 1) * pageSize + 8), SEEK_SET);
    const std::string junk(static_cast<size_t>(pageSize - 16), '\x5a');
    std::fwrite(junk.data(), 1, junk.size(), f);
    std::fclose(f);
  }
  EXPECT_NE(RunReader(path).damage(), "");
  try {
    RunWriter writer(path, testing::sampleRunInfo());
    FAIL() << "a run was added to a damaged database, as run " << writer.runId();
  } catch (const StoreError& e) {
    EXPECT_EQ(e.kind(), StoreErrorKind::Damaged);
    EXPECT_EQ(std::string(e.what()).rfind("the database " + path + " is damaged (runs table: ", 0),
              0u)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();  // one line
    EXPECT_NE(std::string(e.what()).find("nothing was run"), std::string::npos) << e.what();
  }
  // A run the damaged page held is said to be unreadable, not to be missing.
  std::ostringstream out, err;
  EXPECT_EQ(runsShow(path, 1, out, err), 2);
  EXPECT_EQ(err.str().find("no run with id"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("damaged"), std::string::npos) << err.str();
}

TEST(StoreRunWriter, RunningRunOfDeadCoordinatorReadsIncomplete) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child records a run and dies without finish() or destructors.
    {
      auto* writer = new RunWriter(path, testing::sampleRunInfo());
      writer->addRequests(testing::sampleRequests(100));
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let it commit
    }
    _exit(0);
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(child, &wstatus, 0), child);
  ASSERT_TRUE(WIFEXITED(wstatus));
  RunReader reader(path);
  auto runs = reader.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].coordinatorPid, child);
  EXPECT_EQ(runs[0].storedStatus, "running");
  EXPECT_EQ(runs[0].status, "incomplete");
  EXPECT_EQ(reader.requestCount(runs[0].id), 100);
}

TEST(StoreRunWriter, EffectiveStatusRules) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const int64_t now = plumbline::util::wallClockNs();
  EXPECT_EQ(RunReader::effectiveStatus("running", getpid(), host, now), "running");
  EXPECT_EQ(RunReader::effectiveStatus("running", testing::deadPid(), host, now), "incomplete");
  EXPECT_EQ(RunReader::effectiveStatus("running", getpid(), "elsewhere.example", now),
            "incomplete");
  EXPECT_EQ(RunReader::effectiveStatus("complete", testing::deadPid(), host, now), "complete");
  // The pid names a live process that started after the run did: the coordinator died and its
  // pid was given again (a reboot, a crash long ago), so the run is not being recorded.
  const auto selfStart = plumbline::util::processStartWallNs(getpid());
  ASSERT_TRUE(selfStart.has_value());
  const int64_t runLongBefore = *selfStart - 10 * 60'000'000'000LL;
  EXPECT_EQ(RunReader::effectiveStatus("running", getpid(), host, runLongBefore), "incomplete");
  EXPECT_EQ(RunReader::effectiveStatus("interrupted", getpid(), host, runLongBefore),
            "interrupted");
  // Within the slack for a wall clock stepped forward, or with no t0 known: still running.
  EXPECT_EQ(RunReader::effectiveStatus("running", getpid(), host, *selfStart - 30'000'000'000LL),
            "running");
  EXPECT_EQ(RunReader::effectiveStatus("running", getpid(), host, 0), "running");
}

TEST(StoreRunWriter, ARunWhosePidWasGivenAgainReadsIncompleteAndCanBeDeleted) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = 0;
  {
    // Its coordinator pid is this process: alive, but started long after the run's t0 (2023).
    auto info = testing::sampleRunInfo();
    info.t0WallNs = 1'700'000'000'000'000'000;
    RunWriter writer(path, info);
    id = writer.runId();
    writer.addRequests(testing::sampleRequests(10));
  }
  RunReader reader(path);
  ASSERT_TRUE(reader.getRun(id).has_value());
  EXPECT_EQ(reader.getRun(id)->storedStatus, "running");
  EXPECT_EQ(reader.getRun(id)->status, "incomplete");
  RunEditor(path).deleteRun(id);
  EXPECT_FALSE(RunReader(path).getRun(id).has_value());
}

TEST(StoreRunWriter, WriterErrorIsReportedByFinish) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  RunWriter writer(path, testing::sampleRunInfo());
  {
    // Deleting the run under the writer makes its inserts violate the foreign key.
    Database other = Database::open(path, Database::Mode::ReadWrite);
    other.exec("DELETE FROM runs");
  }
  writer.addRequests(testing::sampleRequests(10));
  try {
    writer.finish({}, {}, true);
    FAIL() << "finish did not report the writer error";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("FOREIGN KEY"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace plumbline::store
